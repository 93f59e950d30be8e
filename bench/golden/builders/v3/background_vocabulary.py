"""Golden set v3: background vocabulary (see __init__.py)."""

from __future__ import annotations

AIRLINES_CN = ["ZH", "HO", "FM", "MF", "SC", "GS", "KN", "JD"]


AIRLINES_WORLD = [
    "TP",
    "IB",
    "OS",
    "SK",
    "AY",
    "AC",
    "DL",
    "AA",
    "NZ",
    "TG",
    "MH",
    "JL",
    "OZ",
    "EI",
]


FLIGHT_OUTCOMES = [
    ("departure slipped by 90 minutes because of a thunderstorm", "因为雷雨推迟了90分钟起飞"),
    ("landed early and the bags came out fast", "提前落地，行李出来得也快"),
    ("the flight was scrapped and moved to the next morning", "航班被取消，改到了第二天早上"),
    ("fog forced a landing at a different airport", "大雾导致飞机落在了另一个机场"),
    ("a checked bag went missing for two days", "托运的箱子丢了两天才找回来"),
    ("got upgraded to business class at the gate", "登机口被升到了公务舱"),
    ("waited on the tarmac for an hour before take-off", "在跑道上干等了一个小时才起飞"),
    ("the inflight wifi worked the whole way", "机上无线网全程都能用"),
    ("missed the connection and spent the night at the airport", "没赶上中转，在机场过了一夜"),
    ("an uneventful trip with no problems", "一路顺利，什么状况都没有"),
]


HOTEL_BRANDS_CN = [("Quanji", "全季"), ("Orange Hotel", "桔子酒店"), ("Wanda Realm", "万达嘉华"),
                   ("Shangri-La", "香格里拉"), ("Crowne Plaza", "皇冠假日"), ("Sofitel", "索菲特")]  # fmt: skip


HOTEL_BRANDS_WORLD = [("Pestana", "Pestana"), ("Scandic", "Scandic"), ("Radisson Blu", "丽笙"),
                      ("Kempinski", "凯宾斯基"), ("Citadines", "馨乐庭"), ("Park Plaza", "丽亭")]  # fmt: skip


HOTEL_REMARKS = [
    ("the room looked straight onto a building site", "窗外正对着工地"),
    ("breakfast was the best part", "早餐是最大的亮点"),
    ("the check-in queue took almost an hour", "办入住排了快一个小时"),
    ("the pool was shut for repairs", "泳池在维修，用不了"),
    ("the room was upgraded for free", "房型被免费升级了"),
    ("the wifi dropped every few minutes", "网络几分钟就断一次"),
    ("the front desk allowed a late checkout at no charge", "前台免费给延迟退房"),
    ("the air conditioning rattled loudly", "空调响得厉害"),
]


MEETING_TOPICS = [
    ("the Q3 pricing experiment", "第三季度的定价实验"),
    ("splitting the billing module out of the monolith", "把计费模块从单体里拆出来"),
    ("the partner onboarding checklist", "合作伙伴接入清单"),
    ("how long to keep audit logs", "审计日志保留多久"),
    ("the tablet layout", "平板端布局"),
    ("hiring a second SRE", "再招一名SRE"),
    ("the warehouse barcode scanner rollout", "仓库扫码枪的推广"),
    ("complaints about search ranking", "用户对搜索排序的投诉"),
    ("the agenda for the annual offsite", "年度团建的议程"),
    ("renewing the CDN contract", "CDN合同续签"),
    ("the latency budget for checkout", "结账接口的延迟预算"),
    ("translating the help centre", "帮助中心的多语言翻译"),
    ("paging rules for weekends", "周末告警的呼叫规则"),
    ("retiring the v1 API", "下线v1接口"),
    ("customer churn in the northern region", "北区的客户流失"),
    ("GPU quota for the research group", "研究组的GPU配额"),
    ("the accessibility audit of the web app", "网页端的无障碍审查"),
    ("cutting cloud storage costs", "压缩云存储成本"),
    ("the loyalty points redesign", "积分体系改版"),
    ("flaky tests in CI", "CI里不稳定的测试"),
    ("event naming conventions", "埋点事件的命名规范"),
    ("switching the error tracker", "更换错误追踪工具"),
    ("the spring marketing campaign", "春季营销活动"),
    ("onboarding docs for new hires", "新人入职文档"),
    ("the quarterly roadmap", "季度路线图"),
    ("SCIM provisioning for large accounts", "大客户的SCIM账号同步"),
    ("the dark mode request", "深色模式的需求"),
    ("the vendor security questionnaire", "供应商安全问卷"),
    ("rate limits on the public API", "公开接口的限流"),
    ("the new office seating plan", "新办公室的座位安排"),
]


MEETING_DECISIONS = [
    ("push the launch back two weeks", "上线推迟两周"),
    ("pilot it with one customer first", "先找一个客户试点"),
    ("stay with the current vendor", "继续用现在的供应商"),
    ("split the work over two sprints", "分两个迭代做完"),
    ("get a legal review before going further", "先请法务评审再往下推进"),
    ("drop it altogether", "干脆不做了"),
    ("bring in a contractor", "找外包来做"),
    ("revisit it next quarter", "下个季度再议"),
    ("hand it to an outside agency", "交给外部机构去做"),
    ("write a design doc before any code", "先写设计文档再动代码"),
]


SERVICES = [
    "atlas-gateway", "quill-search", "harbor-billing", "nimbus-auth", "orca-ingest",
    "pebble-notify", "tundra-reports", "maple-cart", "falcon-media", "cedar-profile",
    "lumen-export", "delta-sync",
]  # fmt: skip


# (cause, fix that goes with it)
FAILURE_CAUSES = [
    (
        ("a missing database migration", "漏跑了数据库迁移"),
        ("redeployed after running the migration", "补跑迁移后重新发布"),
    ),
    (
        ("a mismatched CA bundle", "CA证书包不匹配"),
        ("recovered once the CA bundle was updated", "更新CA证书包后恢复"),
    ),
    (
        ("a wrong feature-flag default", "功能开关默认值配错"),
        ("fixed by flipping the flag back", "把开关改回去后修复"),
    ),
    (
        ("the new image exceeding its memory limit", "新镜像超出了内存限制"),
        ("recovered after raising the memory limit", "调高内存上限后恢复"),
    ),
    (
        ("a typo in the Helm values", "Helm配置里有笔误"),
        ("redeployed with corrected values", "改正配置后重新发布"),
    ),
    (
        ("a race condition during cache warm-up", "缓存预热时的竞态条件"),
        ("patched forward with a hotfix", "打了热修复补丁"),
    ),
    (
        ("a DNS record that had not propagated", "DNS记录还没生效"),
        ("cleared up once the record propagated", "等记录生效后自行恢复"),
    ),
    (
        ("an incompatible protobuf change", "protobuf的不兼容改动"),
        ("fixed by pinning the previous client library", "锁回旧版客户端库后修好"),
    ),
    (
        ("a connection pool that was too small", "连接池开得太小"),
        ("fixed by enlarging the pool", "调大连接池后恢复"),
    ),
    (
        ("a cron job firing twice", "定时任务重复触发"),
        ("fixed by adding a lock to the job", "给任务加锁后修复"),
    ),
]


ROLLBACK = ("rolled back within ten minutes", "十分钟内回滚了")


ERROR_PREFIXES = ["E", "ERR", "CFG", "MIG", "IMG", "NET"]


# (symptom, services it shows up in)
SYMPTOMS = [
    (("checkout timeouts", "结账超时"), ["maple-cart", "harbor-billing"]),
    (("duplicate push notifications", "推送重复发送"), ["pebble-notify", "delta-sync"]),
    (("blank search results", "搜索结果一片空白"), ["quill-search", "atlas-gateway"]),
    (("a login redirect loop", "登录跳转死循环"), ["nimbus-auth", "cedar-profile"]),
    (("a spike of 502 errors", "502错误激增"), ["atlas-gateway", "falcon-media"]),
    (("outdated prices on product pages", "商品页显示过期价格"), ["maple-cart", "quill-search"]),
    (("very slow report exports", "报表导出极慢"), ["tundra-reports", "lumen-export"]),
    (("email receipts not going out", "收据邮件发不出去"), ["pebble-notify", "harbor-billing"]),
    (("missing thumbnails on uploads", "上传后缩略图缺失"), ["falcon-media", "orca-ingest"]),
    (("profiles reverting to old data", "个人资料回退成旧数据"), ["cedar-profile", "delta-sync"]),
]


SHOPS = {
    "zh": [("Taobao", "淘宝"), ("Vipshop", "唯品会"), ("Pinduoduo", "拼多多"), ("Tmall", "天猫"),
           ("Decathlon", "迪卡侬"), ("Muji", "无印良品")],
    "en": [("Amazon", "亚马逊"), ("Zalando", "Zalando"), ("IKEA online", "宜家线上商城"),
           ("Decathlon", "迪卡侬"), ("Etsy", "Etsy"), ("John Lewis", "John Lewis")],
}  # fmt: skip


# (English bare noun phrase, Chinese, takes an article)
ORDER_ITEMS = [
    ("cast-iron skillet", "铸铁平底锅", True),
    ("anti-fatigue floor mat", "抗疲劳地垫", True),
    ("pair of approach shoes", "登山接近鞋", True),
    ("mechanical pencil set", "自动铅笔套装", True),
    ("water filter jug", "滤水壶", True),
    ("camping lantern", "露营灯", True),
    ("bone-conduction headphones", "骨传导耳机", False),
    ("yoga block", "瑜伽砖", True),
    ("wool throw blanket", "羊毛盖毯", True),
    ("pour-over coffee kettle", "手冲壶", True),
    ("bike helmet", "骑行头盔", True),
    ("laptop stand", "笔记本支架", True),
    ("set of storage boxes", "收纳箱套装", True),
    ("fleece jacket", "抓绒外套", True),
    ("ceramic dinner set", "陶瓷餐具套装", True),
    ("e-reader case", "阅读器保护套", True),
    ("kneeling chair", "跪姿椅", True),
    ("rain shower head", "顶喷花洒", True),
    ("USB-C hub", "USB-C扩展坞", True),
    ("merino hiking socks", "美利奴羊毛徒步袜", False),
]


ORDER_OUTCOMES = [
    (
        "it arrived with a cracked lid and the shop sent a replacement",
        "到手时盖子裂了，商家补寄了一个",
    ),
    ("the colour was wrong, so it went back for a refund", "颜色发错了，退货退了款"),
    ("it took almost three weeks to turn up", "等了将近三周才收到"),
    ("the charger was missing from the box", "盒子里少了充电器"),
    ("it was exactly as described", "跟描述的一模一样"),
    ("the courier left it at the wrong building", "快递员放错了楼栋"),
    ("the size was too small and it was exchanged", "尺码偏小，换了一次货"),
    (
        "a coupon was not applied and the shop refunded the difference",
        "优惠券没抵扣上，商家退了差价",
    ),
]


# (vendor, [(issue, kind of issue)])
SUPPORT_CASES = [
    (
        ("the fibre provider", "光纤服务商"),
        [
            (("the router dropping out every evening", "路由器每天晚上掉线"), "tech"),
            (("a double charge on the monthly bill", "月账单重复扣费"), "money"),
            (("a missed installation visit", "约好的上门安装没人来"), "visit"),
        ],
    ),
    (
        ("the bank", "银行"),
        [
            (("a frozen online account", "网银账户被冻结"), "account"),
            (("a late fee charged by mistake", "被误收了滞纳金"), "money"),
        ],
    ),
    (
        ("the airline", "航空公司"),
        [
            (("a refund stuck for six weeks", "退款卡了六周没到账"), "money"),
            (("a misspelt name on the booking", "订票姓名拼错"), "account"),
        ],
    ),
    (
        ("the car rental company", "租车公司"),
        [
            (("a scratch they blamed on the user", "一道硬说是用户弄的划痕"), "dispute"),
            (("the deposit being taken twice", "押金被扣了两次"), "money"),
        ],
    ),
    (
        ("the cloud provider", "云服务商"),
        [
            (("a surprise bill for idle disks", "闲置磁盘产生的意外账单"), "money"),
            (("an account suspended by a fraud check", "账号被风控暂停"), "account"),
        ],
    ),
    (
        ("the letting agency", "租房中介"),
        [
            (("a broken water heater", "热水器坏了"), "visit"),
            (("a deposit deduction the user disputed", "被扣押金，用户不认"), "dispute"),
        ],
    ),
    (
        ("the electricity supplier", "供电公司"),
        [
            (("an estimated meter reading far too high", "估算的电表读数高得离谱"), "money"),
            (("a smart meter that stopped reporting", "智能电表不再上报读数"), "tech"),
        ],
    ),
    (
        ("the mobile network", "移动网络公司"),
        [
            (("no signal at home for a week", "家里一周没信号"), "tech"),
            (("roaming charges billed by mistake", "被误收漫游费"), "money"),
        ],
    ),
    (
        ("the insurer", "保险公司"),
        [
            (("a claim for a damaged suitcase", "行李箱损坏的理赔"), "dispute"),
            (("a misspelt name on the policy", "保单上名字拼错"), "account"),
        ],
    ),
    (
        ("the meal-kit subscription", "净菜订阅服务"),
        [(("a box charged after cancelling", "退订后还被扣了一箱的钱"), "money")],
    ),
]
