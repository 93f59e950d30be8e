"""Golden set v2: background vocabulary, continued (see __init__.py)."""

from __future__ import annotations

HELP_OUTCOMES = [
    ("we went through three drafts", "我们改了三稿"),
    ("they were happy with the result", "用户对结果很满意"),
    ("they said they would finish it alone", "用户说剩下的自己来"),
    ("we ran out of time halfway", "做到一半时间不够了"),
]


PROJECT_COMPONENTS = [
    (("the message queue", "消息队列"), ["Kafka", "RabbitMQ", "NATS", "Pulsar"]),
    (("the frontend", "前端"), ["React", "Vue", "Svelte", "Angular"]),
    (("the cache layer", "缓存层"), ["Redis", "Memcached", "Dragonfly"]),
    (("the CI pipeline", "CI流水线"), ["GitHub Actions", "GitLab CI", "Jenkins", "Buildkite"]),
    (("the data warehouse", "数据仓库"), ["BigQuery", "Snowflake", "ClickHouse", "Doris"]),
    (("monitoring", "监控"), ["Prometheus", "Datadog", "Grafana Cloud"]),
    (("the search index", "搜索索引"), ["Elasticsearch", "OpenSearch", "Meilisearch"]),
    (("feature flags", "功能开关"), ["LaunchDarkly", "Unleash", "a home-grown service"]),
    (("infrastructure as code", "基础设施即代码"), ["Terraform", "Pulumi", "Ansible"]),
    (("the ORM", "ORM"), ["SQLAlchemy", "Django ORM", "Prisma", "GORM"]),
    (("workflow orchestration", "任务编排"), ["Airflow", "Temporal", "Dagster"]),
    (("error tracking", "错误追踪"), ["Sentry", "Rollbar", "Bugsnag"]),
]


PROJECT_NOTE_REASONS = [
    ("mainly because the team already knows it", "主要因为团队已经熟悉它"),
    ("after a two-week trial", "经过两周的试用"),
    ("because it was the cheapest option", "因为成本最低"),
    ("over the objections of the ops team", "尽管运维团队有异议"),
    ("since it fits the existing stack", "因为和现有技术栈契合"),
]


PURCHASE_ITEMS = [
    ("road bike", "公路自行车"),
    ("acoustic guitar", "木吉他"),
    ("sofa", "沙发"),
    ("camera lens", "相机镜头"),
    ("board game", "桌游"),
    ("monstera plant", "龟背竹"),
    ("wristwatch", "手表"),
    ("pair of sunglasses", "墨镜"),
    ("wine fridge", "酒柜"),
    ("tennis racket", "网球拍"),
    ("printer", "打印机"),
    ("winter coat", "大衣"),
    ("drone", "无人机"),
    ("fountain pen", "钢笔"),
    ("cast-iron pan", "铸铁锅"),
    ("rug", "地毯"),
    ("electric kettle", "电热水壶"),
    ("tea set", "茶具"),
]


# typical price in yuan, by English name
PURCHASE_PRICES = {
    "road bike": 6000, "acoustic guitar": 1500, "sofa": 5000, "camera lens": 4000, "board game": 300,
    "monstera plant": 150, "wristwatch": 2500, "pair of sunglasses": 800, "wine fridge": 2800,
    "tennis racket": 900, "printer": 1200, "winter coat": 1600, "drone": 5500, "fountain pen": 400,
    "cast-iron pan": 350, "rug": 1100, "electric kettle": 200, "tea set": 600,
}  # fmt: skip


STORES = [
    ("a shopping mall near home", "家附近的商场"),
    ("an online shop", "网店"),
    ("a second-hand market", "二手市场"),
    ("a department store", "百货商场"),
    ("a weekend market", "周末集市"),
    ("a shop near the office", "公司附近的一家店"),
    ("a duty-free shop", "免税店"),
]


RESTAURANTS = [
    ("Din Tai Fung", "鼎泰丰"),
    ("Haidilao", "海底捞"),
    ("Nobu", "Nobu"),
    ("Dishoom", "Dishoom"),
    ("Little Sheep", "小肥羊"),
    ("Xiao Long Kan", "小龙坎"),
    ("Lao Wang's Noodle Bar", "老王面馆"),
    ("Green Tea Restaurant", "绿茶餐厅"),
    ("Da Dong Roast Duck", "大董烤鸭"),
    ("Ippudo", "一风堂"),
    ("Pizza Marzano", "玛尚诺"),
    ("Taste of Yunnan", "云南味道"),
    ("The Grill Room", "The Grill Room"),
    ("Jade Garden", "翡翠花园"),
    ("Sushi Zen", "禅寿司"),
    ("Blue Frog", "蓝蛙"),
]


DISHES = [
    ("xiaolongbao", "小笼包"),
    ("roast duck", "烤鸭"),
    ("black cod", "黑鳕鱼"),
    ("lamb skewers", "羊肉串"),
    ("mapo tofu", "麻婆豆腐"),
    ("tiramisu", "提拉米苏"),
    ("beef noodles", "牛肉面"),
    ("mushroom risotto", "蘑菇烩饭"),
]


DINNER_COMPLAINTS = [
    ("the service was slow", "上菜太慢"),
    ("it was too loud to talk", "太吵了没法聊天"),
    ("the bill was higher than expected", "账单比预想的贵"),
    ("they had to wait an hour for a table", "排了一个小时才有位子"),
    ("the portions were small", "分量太小"),
]


APPOINTMENTS = [
    ("dentist appointment", "看牙医"),
    ("haircut", "理发预约"),
    ("car service", "汽车保养"),
    ("visa interview", "签证面谈"),
    ("tax advisor meeting", "税务顾问见面"),
    ("passport renewal appointment", "护照换发预约"),
    ("eye test", "验光"),
    ("apartment viewing", "看房"),
    ("bank appointment about a loan", "银行贷款面谈"),
    ("piano tuner visit", "钢琴调音师上门"),
]


DELIVERABLES = [
    ("the Q3 board deck", "第三季度董事会汇报"),
    ("the investor update", "投资人简报"),
    ("the team newsletter", "团队通讯"),
    ("the conference talk slides", "大会演讲幻灯片"),
    ("the onboarding doc", "入职文档"),
    ("the wedding invitation", "婚礼请柬"),
    ("the annual report", "年度报告"),
    ("the product launch email", "产品发布邮件"),
    ("the hackathon poster", "黑客松海报"),
    ("the API reference", "API参考文档"),
    ("the quarterly OKR summary", "季度OKR总结"),
    ("the customer case study", "客户案例"),
]


DELIVERABLE_STYLES = [
    ("charts in blue and grey only", "图表只用蓝灰配色"),
    ("no more than five pages", "不超过五页"),
    ("a casual, friendly tone", "语气轻松友好"),
    ("both English and Chinese text", "中英双语"),
    ("a one-page summary on top", "最前面放一页摘要"),
    ("no emoji anywhere", "不要出现表情符号"),
    ("the company's serif font", "用公司的衬线字体"),
    ("real customer quotes instead of made-up ones", "用真实客户原话，不要编的"),
]


FILMS = [
    ("Oppenheimer", "奥本海默"),
    ("The Wandering Earth 2", "流浪地球2"),
    ("Dune: Part Two", "沙丘2"),
    ("Past Lives", "过往人生"),
    ("Everything Everywhere All at Once", "瞬息全宇宙"),
    ("Spirited Away", "千与千寻"),
    ("Parasite", "寄生虫"),
    ("Inception", "盗梦空间"),
    ("Interstellar", "星际穿越"),
    ("Better Call Saul", "风骚律师"),
    ("The Bear", "熊家餐馆"),
    ("Blossoms Shanghai", "繁花"),
    ("Shogun", "幕府将军"),
    ("Arrival", "降临"),
    ("Perfect Days", "完美的日子"),
    ("Anatomy of a Fall", "坠落的审判"),
    ("Succession", "继承之战"),
    ("Severance", "人生切割术"),
    ("The Long Season", "漫长的季节"),
    ("Decision to Leave", "分手的决心"),
    ("Poor Things", "可怜的东西"),
    ("The Holdovers", "留校联盟"),
]


FILM_OPINIONS = [
    ("too slow in the middle", "中间节奏太慢"),
    ("visually stunning", "画面非常震撼"),
    ("confusing", "有点看不懂"),
    ("overrated", "名不副实"),
    ("worth watching again", "值得二刷"),
    ("very funny", "非常好笑"),
    ("moving, they cried at the end", "很感人，结尾哭了"),
]


INVOICE_VENDORS = [
    ("the design agency", "设计公司"),
    ("the co-working space", "联合办公空间"),
    ("the accounting firm", "会计师事务所"),
    ("the translation service", "翻译公司"),
    ("the moving company", "搬家公司"),
    ("the wedding photographer", "婚礼摄影师"),
    ("the print shop", "印刷厂"),
    ("the conference organiser", "会议主办方"),
    ("the web hosting company", "网站托管商"),
    ("the freelance illustrator", "自由插画师"),
]


INVOICE_REMARKS = [
    ("was paid two weeks late", "晚付了两周"),
    ("had the wrong tax ID on it", "上面的税号写错了"),
    ("was disputed and sent back", "有争议被退回了"),
    ("was split into two payments", "分两笔付清"),
    ("charged twice for the same service", "同一项服务收了两次钱"),
]


# Named conferences happen in their own cities; other events anywhere.
EVENT_CITIES = {
    "PyCon China": [("Shanghai", "上海"), ("Beijing", "北京"), ("Chengdu", "成都")],
    "KubeCon Europe": [("Paris", "巴黎"), ("Amsterdam", "阿姆斯特丹"), ("London", "伦敦")],
    "QCon": [
        ("Beijing", "北京"),
        ("Shanghai", "上海"),
        ("London", "伦敦"),
        ("San Francisco", "旧金山"),
    ],
}


EVENTS = [
    ("PyCon China", "PyCon中国"),
    ("KubeCon Europe", "KubeCon欧洲"),
    ("a Jay Chou concert", "周杰伦演唱会"),
    ("the city marathon", "城市马拉松"),
    ("a wine tasting", "品酒会"),
    ("QCon", "QCon技术大会"),
    ("a pottery workshop", "陶艺体验课"),
    ("a jazz festival", "爵士音乐节"),
    ("a startup pitch night", "创业路演之夜"),
    ("a photography exhibition", "摄影展"),
    ("a stand-up comedy show", "脱口秀演出"),
    ("a board-game café meetup", "桌游吧聚会"),
    ("an AI meetup", "AI技术沙龙"),
    ("a charity run", "公益跑"),
]


EVENT_REMARKS = [
    ("found it worth the money", "觉得很值"),
    ("left early because it was too crowded", "人太多提前走了"),
    ("met an old colleague there", "在那里碰到了老同事"),
    ("said the talks were too basic", "说演讲内容太浅"),
    ("got a free T-shirt", "领到了一件纪念T恤"),
]
