"""Golden set v2: background vocabulary (see __init__.py)."""

from __future__ import annotations

AIRLINES = ["CA", "MU", "CZ", "HU", "LH", "SQ", "NH", "BA", "AF", "KL", "CX", "UA", "QF", "KE"]


FLIGHT_OUTCOMES = [
    ("was delayed by {h} hours because of {reason}", "因{reason}延误了{h}小时"),
    (
        "was cancelled and the user was rebooked on the next morning's flight",
        "被取消，用户改签到了第二天早上的航班",
    ),
    (
        "lost the user's suitcase, which turned up two days later",
        "把用户的行李弄丢了，两天后才找回来",
    ),
    ("gave the user a free upgrade to business class", "给用户免费升舱到了商务舱"),
    ("was diverted to another airport because of {reason}", "因{reason}备降到了别的机场"),
    ("landed 40 minutes early", "提前四十分钟落地"),
]


FLIGHT_REASONS = [
    ("a thunderstorm", "雷暴天气"),
    ("a crew shortage", "机组人员不足"),
    ("a technical check", "机械检查"),
    ("air traffic control restrictions", "空中流量管制"),
    ("fog", "大雾"),
    ("a late inbound aircraft", "前序航班晚到"),
    ("a snowstorm", "暴雪"),
]


HOTEL_BRANDS = ["Hilton", "Marriott", "Hyatt", "Atour", "Novotel", "Ibis", "Hanting", "Mandarin Oriental", "Holiday Inn", "Ritz-Carlton"]  # fmt: skip


HOTEL_REMARKS = [
    ("the room faced a noisy street", "房间临街很吵"),
    ("the breakfast was excellent", "早餐非常好"),
    ("the air conditioning broke on the second night", "第二晚空调坏了"),
    ("they got a free late checkout", "拿到了免费延迟退房"),
    ("the Wi-Fi kept dropping", "无线网一直掉线"),
    ("the bed was too soft for them", "床垫太软睡不好"),
    ("the view over the river was great", "江景非常好"),
]


MEETING_TOPICS = [
    ("the Q3 roadmap", "第三季度路线图"),
    ("the hiring plan", "招聘计划"),
    ("the data retention policy", "数据保留策略"),
    ("the on-call rota", "值班排班"),
    ("the pricing page redesign", "定价页面改版"),
    ("the team offsite agenda", "团建行程"),
    ("the vendor contract renewal", "供应商合同续签"),
    ("the mobile app release", "移动端发版"),
    ("the 2027 budget", "2027年预算"),
    ("the customer churn analysis", "客户流失分析"),
    ("the SLA for enterprise customers", "企业客户的SLA"),
    ("the intern program", "实习生项目"),
    ("the security audit findings", "安全审计发现的问题"),
    ("the design system", "设计系统"),
    ("the search ranking experiment", "搜索排序实验"),
    ("the analytics dashboard", "数据看板"),
    ("the localisation of the app", "应用本地化"),
    ("the API versioning scheme", "API版本策略"),
    ("the office move", "办公室搬迁"),
    ("the performance review cycle", "绩效考核周期"),
    ("the postmortem process", "故障复盘流程"),
    ("the logistics partnership", "物流合作"),
    ("the code review guidelines", "代码评审规范"),
    ("the cloud cost overrun", "云成本超支"),
    ("the onboarding flow", "新用户引导流程"),
    ("the warehouse automation pilot", "仓库自动化试点"),
    ("the data request backlog", "数据请求积压"),
    ("the new logo", "新Logo"),
    ("the quarterly all-hands", "季度全员大会"),
    ("the accessibility review", "无障碍评审"),
    ("the dark mode launch", "深色模式上线"),
    ("the partner API", "合作方接口"),
]


MEETING_DECISIONS = [
    ("postpone it by two weeks", "推迟两周"),
    ("hire two more engineers for it", "再招两名工程师"),
    ("run an A/B test first", "先做A/B测试"),
    ("cut the scope to the essentials", "把范围砍到核心功能"),
    ("ask finance for a second opinion", "请财务再评估一次"),
    ("ship it behind a feature flag", "用功能开关灰度上线"),
    ("move the deadline to the end of the quarter", "把截止日期改到季度末"),
    ("split the work between two teams", "把工作拆给两个团队"),
    ("drop it entirely", "直接放弃"),
    ("get legal to review it", "请法务审核"),
    ("bring in an outside consultant", "请外部顾问来做"),
    ("revisit it after the holidays", "假期之后再议"),
]


SERVICES = [
    "billing", "search", "checkout", "auth", "payments", "notifications", "recommendations",
    "gateway", "reporting", "user-profile", "image-resizer", "email-sender", "ledger",
    "scheduler", "geo-lookup", "feature-flags", "chat", "media-upload", "audit-log", "pricing",
]  # fmt: skip


DEPLOY_CAUSES = [
    ("a database migration timed out", "数据库迁移超时"),
    ("the TLS certificate had expired", "TLS证书过期"),
    ("the disk filled up", "磁盘写满了"),
    ("a config flag was missing", "缺少一个配置开关"),
    ("a dependency was pinned to a yanked version", "依赖被锁定到一个已撤回的版本"),
    ("the health check pointed at the wrong port", "健康检查端口配错了"),
    ("an environment variable had a typo", "环境变量拼写错误"),
    ("the container ran out of memory", "容器内存不足"),
    ("a schema change locked a hot table", "表结构变更锁住了热点表"),
    ("the image was built for the wrong CPU architecture", "镜像的CPU架构打错了"),
]


DEPLOY_FIXES = [
    ("rolling back", "回滚"),
    ("a hotfix the same evening", "当晚打补丁"),
    ("re-running the pipeline", "重跑流水线"),
    ("raising the resource limits", "调高资源上限"),
]


INFRA = [
    ("the Redis cluster", "Redis集群"),
    ("the Kafka brokers", "Kafka集群"),
    ("the CDN", "CDN"),
    ("the primary database", "主数据库"),
    ("the load balancer", "负载均衡"),
    ("internal DNS", "内网DNS"),
    ("the job scheduler", "任务调度系统"),
    ("object storage", "对象存储"),
    ("the office VPN", "公司VPN"),
    ("the CI runners", "CI构建机"),
    ("the Elasticsearch cluster", "Elasticsearch集群"),
    ("the message queue", "消息队列"),
    ("the metrics pipeline", "监控指标管道"),
    ("the service mesh", "服务网格"),
]


INCIDENT_SYMPTOMS = [
    ("latency spiked to {ms} ms", "延迟飙升到{ms}毫秒"),
    ("about {pct}% of requests failed", "约{pct}%的请求失败"),
    ("a backlog of {n} messages piled up", "积压了{n}条消息"),
    ("nodes kept restarting", "节点反复重启"),
]


INCIDENT_CAUSES = [
    ("a noisy neighbour on the same host", "同宿主机上的其他服务抢资源"),
    ("an expired certificate", "证书过期"),
    ("a bad config push", "一次错误的配置下发"),
    ("a network partition between zones", "可用区之间网络分区"),
    ("a runaway batch job", "一个失控的批处理任务"),
    ("a kernel upgrade", "内核升级"),
]


ORDER_ITEMS = [
    ("standing desk", "升降桌"),
    ("mechanical keyboard", "机械键盘"),
    ("4K monitor", "4K显示器"),
    ("espresso machine", "意式咖啡机"),
    ("running shoes", "跑鞋"),
    ("air purifier", "空气净化器"),
    ("office chair", "人体工学椅"),
    ("noise-cancelling headphones", "降噪耳机"),
    ("rice cooker", "电饭煲"),
    ("robot vacuum", "扫地机器人"),
    ("e-reader", "电子阅读器"),
    ("camping tent", "露营帐篷"),
    ("yoga mat", "瑜伽垫"),
    ("bookshelf", "书架"),
    ("blender", "破壁机"),
    ("down jacket", "羽绒服"),
    ("suitcase", "行李箱"),
    ("webcam", "摄像头"),
    ("desk lamp", "台灯"),
    ("electric toothbrush", "电动牙刷"),
    ("Wi-Fi router", "无线路由器"),
    ("portable projector", "便携投影仪"),
    ("air fryer", "空气炸锅"),
    ("smart watch", "智能手表"),
    ("dehumidifier", "除湿机"),
    ("hiking boots", "登山鞋"),
    ("bed sheets", "床单"),
]


ORDER_PROBLEMS = [
    ("arrived damaged in a crushed box", "到货时包装压坏，东西也有破损"),
    ("came in the wrong colour", "颜色发错了"),
    ("was missing a part", "少了一个零件"),
    ("turned up two weeks late", "晚到了两周"),
    ("was not the model shown on the product page", "发来的型号和商品页面上不一致"),
    ("developed a defect within a week", "不到一周就出了质量问题"),
    ("had a scratched surface", "表面有划痕"),
]


ORDER_REMEDIES = [
    ("a replacement", "换货"),
    ("a full refund", "全额退款"),
    ("a partial refund", "部分退款"),
    ("a repair under warranty", "保修维修"),
]


TICKET_VENDORS = [
    ("the bank's mobile app", "银行App"),
    ("the internet provider", "宽带运营商"),
    ("the phone carrier", "手机运营商"),
    ("the property agency", "房屋中介"),
    ("the car insurer", "车险公司"),
    ("the tax-filing software", "报税软件"),
    ("the VPN service", "VPN服务商"),
    ("the food delivery app", "外卖平台"),
    ("the bike-sharing app", "共享单车App"),
    ("the airline's customer service", "航空公司客服"),
    ("the electricity company", "电力公司"),
    ("the streaming service", "视频会员平台"),
    ("the gym chain", "连锁健身房"),
    ("the photo printing site", "照片冲印网站"),
    ("the parking app", "停车App"),
]


TICKET_ISSUES = [
    ("a double charge", "重复扣款"),
    ("an account locked after a phone change", "换手机后账号被锁"),
    ("a login loop", "登录死循环"),
    ("a refund that never arrived", "退款一直没到账"),
    ("a wrong billing address", "账单地址错误"),
    ("an unexpected price rise", "突然涨价"),
    ("a cancelled membership still being billed", "会员取消后还在扣费"),
]


TICKET_RESOLUTIONS = [
    ("it was closed after {n} days with an apology", "{n}天后关闭，对方道了歉"),
    ("they got a credit of {amt}", "获得了{amt}的补偿"),
    ("it was escalated twice before being fixed", "升级了两次才解决"),
    ("it is still unresolved", "至今没有解决"),
]


HELP_TASKS = [
    ("writing a wedding toast for a friend", "写朋友婚礼上的致辞"),
    ("comparing two mortgage offers", "比较两份房贷方案"),
    ("writing a SQL query for monthly active users", "写统计月活的SQL"),
    ("translating a restaurant menu into English", "把餐厅菜单翻成英文"),
    ("preparing for a system design interview", "准备系统设计面试"),
    ("debugging a flaky pytest test", "排查一个时好时坏的pytest用例"),
    ("summarising a 40-page market report", "总结一份四十页的市场报告"),
    ("fixing a regex for email addresses", "修一个匹配邮箱的正则表达式"),
    ("making a packing list for a ski trip", "列滑雪旅行的行李清单"),
    ("naming a side project", "给业余项目起名字"),
    ("writing a complaint letter to the landlord", "给房东写投诉信"),
    ("planning a three-day itinerary in Kyoto", "规划京都三日游行程"),
    ("choosing between two job offers", "在两个工作机会之间做选择"),
    ("drafting a product requirements document", "起草产品需求文档"),
    ("setting up a home NAS", "搭建家用NAS"),
    ("writing a birthday poem for their mother", "给妈妈写生日诗"),
    ("cleaning up a messy Excel sheet", "整理一个很乱的Excel表"),
    ("learning the rules of mahjong", "学麻将规则"),
    ("writing a reference letter for an intern", "给实习生写推荐信"),
    ("converting a Dockerfile to multi-stage", "把Dockerfile改成多阶段构建"),
    ("planning a vegetable garden", "规划菜园"),
    ("preparing a talk on observability", "准备一场关于可观测性的分享"),
    ("picking a gift for a retiring colleague", "给退休同事挑礼物"),
    ("estimating a kitchen renovation budget", "估算厨房翻新预算"),
    ("writing unit tests for a date parser", "给日期解析函数写单元测试"),
    ("understanding a tax refund letter", "看懂一封退税通知"),
    ("tuning a slow PostgreSQL query", "优化一条很慢的PostgreSQL查询"),
    ("drafting a speech for the team party", "写团队聚会的发言稿"),
]
