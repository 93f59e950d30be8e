"""Golden set v2: vocabulary, continued (see __init__.py)."""

from __future__ import annotations

CHILD_NAMES = ["Lily", "Max", "Tongtong", "Leo", "Yoyo", "Ava", "Doudou", "Sam", "Nini", "Theo"]


PHONES = [
    "iPhone 15 Pro", "iPhone 13 mini", "Pixel 8", "Galaxy S23", "Huawei Mate 60",
    "Xiaomi 14", "OnePlus 12", "iPhone 16", "Honor Magic 6", "Pixel 7a",
]  # fmt: skip


LAPTOPS = [
    "MacBook Pro 14", "ThinkPad X1 Carbon", "Dell XPS 13", "MacBook Air M2", "Framework 13",
    "Huawei MateBook X", "Surface Laptop 5", "ThinkPad T14",
]  # fmt: skip


EDITORS = [
    "VS Code",
    "PyCharm",
    "Neovim",
    "Emacs",
    "IntelliJ IDEA",
    "Sublime Text",
    "Cursor",
    "Zed",
]


PROG_LANGS = ["Python", "Go", "Java", "TypeScript", "Rust", "Kotlin", "C++", "Scala", "SQL"]


OSES = [
    ("macOS", "macOS"),
    ("Arch Linux", "Arch Linux"),
    ("Ubuntu", "Ubuntu"),
    ("Windows 11", "Windows 11"),
    ("Fedora", "Fedora"),
]


LANGS_SPOKEN = [
    ("Mandarin, English and some Japanese", "普通话、英语和一点日语"),
    ("Mandarin and Cantonese", "普通话和粤语"),
    ("English and German", "英语和德语"),
    ("English, French and basic Mandarin", "英语、法语和基础中文"),
    ("Mandarin, English and Korean", "普通话、英语和韩语"),
    ("English and Spanish", "英语和西班牙语"),
    ("English, plus a little written Chinese", "英语，外加一点中文阅读"),
    ("Shanghainese, Mandarin and English", "上海话、普通话和英语"),
]


STANDUP_TIMES = ["9:15", "9:30", "9:45", "10:00", "10:15", "10:30", "11:00"]


MEETING_PREFS = [
    ("no meetings before 10 am", "上午十点之前不安排会议"),
    ("meetings bunched into Tuesday and Thursday afternoons", "会议集中放在周二和周四下午"),
    ("keeping Friday completely free of meetings", "周五全天不开会"),
    (
        "30-minute meetings at most, with an agenda sent beforehand",
        "每个会最多三十分钟，并且提前发议程",
    ),
    ("calls after 4 pm, when their focus time is over", "下午四点以后再开会，之前是专注时间"),
    ("morning meetings, since their afternoons are for deep work", "上午开会，下午留给深度工作"),
]


SEATS = [("aisle", "靠过道"), ("window", "靠窗"), ("exit-row", "紧急出口排")]


TRAVEL_MODES = [
    (
        "high-speed rail over flying for anything under five hours",
        "五小时以内的行程坐高铁，不坐飞机",
    ),
    ("flying whenever possible, even for short hops", "能坐飞机就坐飞机，再短的路程也一样"),
    ("overnight trains, which they find restful", "坐卧铺夜车，觉得这样最省心"),
    ("driving themselves on trips within 300 km", "三百公里以内自己开车去"),
]


HOTEL_PREFS = [
    ("a quiet room on a high floor, away from the lift", "高楼层、远离电梯的安静房间"),
    ("hotels with a gym and a pool", "带健身房和泳池的酒店"),
    ("small boutique hotels rather than big chains", "小众精品酒店，不住大型连锁"),
    ("apartments with a kitchen for longer stays", "长住时选带厨房的公寓"),
    ("staying within walking distance of a metro station", "步行能到地铁站的酒店"),
]


ANSWER_STYLES = [
    ("the conclusion first, then the evidence", "先说结论，再给依据"),
    ("short bullet points with no long paragraphs", "简短的要点列表，不要大段文字"),
    ("detailed explanations with runnable code examples", "详细解释并附上可以运行的代码示例"),
    ("a table whenever options are being compared", "比较多个选项时用表格呈现"),
    ("a one-line summary and a link to sources", "一句话总结再加上资料来源链接"),
    ("step-by-step instructions, numbered", "按编号一步一步地写"),
]


REPLY_LANGS = [
    ("replies in Chinese even when they write in English", "即使用英文提问也用中文回复"),
    ("replies in English, with technical terms left untranslated", "用英文回复，技术术语不要翻译"),
    ("replies in whatever language they wrote in", "用提问时的语言回复"),
    ("Chinese replies with the English term in brackets", "用中文回复，并在括号里附上英文术语"),
]


HOBBIES = [
    ("photography", "摄影"),
    ("pottery", "做陶艺"),
    ("board games", "玩桌游"),
    ("gardening on the balcony", "在阳台种花种菜"),
    ("baking bread", "烤面包"),
    ("Chinese calligraphy", "练书法"),
    ("fishing", "钓鱼"),
    ("knitting", "织毛衣"),
    ("birdwatching", "观鸟"),
    ("jigsaw puzzles", "拼拼图"),
    ("building Lego sets", "拼乐高"),
]


MUSIC = [
    ("jazz", "爵士乐"),
    ("classical piano music", "古典钢琴曲"),
    ("Mandopop, especially Jay Chou", "华语流行，尤其是周杰伦"),
    ("indie rock", "独立摇滚"),
    ("lo-fi hip hop", "lo-fi 嘻哈"),
    ("K-pop", "韩国流行音乐"),
    ("film soundtracks", "电影原声"),
    ("folk music", "民谣"),
]


BOOKS = [
    ("Designing Data-Intensive Applications", "数据密集型应用系统设计"),
    ("The Three-Body Problem", "三体"),
    ("Dune", "沙丘"),
    ("To Live", "活着"),
    ("Sapiens", "人类简史"),
    ("Thinking, Fast and Slow", "思考，快与慢"),
    ("The Pragmatic Programmer", "程序员修炼之道"),
    ("Norwegian Wood", "挪威的森林"),
    ("Fortress Besieged", "围城"),
    ("Project Hail Mary", "挽救计划"),
]


COMMUTES = [
    ("takes the metro, about 40 minutes each way", "坐地铁，单程大约四十分钟"),
    ("cycles, roughly 25 minutes", "骑自行车，大概二十五分钟"),
    ("walks, since the office is 15 minutes away", "走路，办公室只有十五分钟路程"),
    ("takes the bus and then a shared bike", "先坐公交再骑共享单车"),
    ("rides an e-scooter", "骑电动滑板车"),
    ("drives, about half an hour in traffic", "开车，堵车时要半小时左右"),
]


CARS = [
    ("a 2019 Tesla Model 3", "一辆2019年的特斯拉Model 3"),
    ("a BYD Han EV", "一辆比亚迪汉EV"),
    ("an old Toyota Corolla", "一辆旧丰田卡罗拉"),
    ("a Volkswagen Golf", "一辆大众高尔夫"),
    ("a NIO ES6", "一辆蔚来ES6"),
    ("a Honda CR-V", "一辆本田CR-V"),
]


WORKOUTS = [
    ("lifts weights at the gym three times a week", "每周去健身房练三次力量"),
    ("runs 5 km most mornings", "大多数早上跑五公里"),
    ("does yoga on Tuesday and Thursday evenings", "每周二、周四晚上练瑜伽"),
    ("cycles about 100 km every weekend", "每个周末骑行一百公里左右"),
    ("goes rock climbing twice a week", "每周攀岩两次"),
    ("plays badminton with colleagues on Wednesdays", "每周三和同事打羽毛球"),
    ("swims laps before work", "上班前去游泳"),
]


PROJECTS = [
    ("Atlas", "moving billing onto Kubernetes", "把计费系统迁到Kubernetes上"),
    ("Phoenix", "rewriting the checkout flow", "重写结账流程"),
    ("Nebula", "building a new data warehouse", "搭建新的数据仓库"),
    ("Orion", "launching the mobile app in Europe", "在欧洲上线移动App"),
    ("Kite", "cutting cloud costs by a third", "把云成本降低三分之一"),
    ("Beacon", "an internal search engine for documents", "做内部文档搜索引擎"),
    ("Harbor", "a new on-call and alerting setup", "重建值班和告警体系"),
    ("Lotus", "the recommendation model refresh", "更新推荐模型"),
    ("Polaris", "a customer analytics dashboard", "做客户分析看板"),
    ("Tidal", "migrating from MySQL to PostgreSQL", "从MySQL迁移到PostgreSQL"),
]


CHANNELS = [
    ("Slack", "Slack"),
    ("WeChat", "微信"),
    ("Feishu", "飞书"),
    ("DingTalk", "钉钉"),
    ("Microsoft Teams", "Teams"),
    ("Telegram", "Telegram"),
]


OFFICE_DAYS = [
    ("works from home on Mondays and Fridays", "周一和周五在家办公"),
    ("is in the office every day except Wednesday", "除了周三每天都去公司"),
    ("is fully remote and visits the office once a month", "完全远程，每月去一次办公室"),
    ("goes to the office Tuesday to Thursday", "周二到周四去办公室"),
]


SLEEP = [
    ("is a night owl who usually sleeps around 1 am", "是夜猫子，一般凌晨一点左右睡"),
    ("gets up at 6 and is most productive early", "六点起床，早上效率最高"),
    ("keeps a strict 11 pm bedtime", "晚上十一点准时睡觉"),
    ("naps for twenty minutes after lunch", "午饭后会午睡二十分钟"),
]


LEARNING = [
    ("the guitar", "吉他"),
    ("the piano", "钢琴"),
    ("public speaking", "公开演讲"),
    ("investing basics", "理财入门"),
    ("driving", "开车"),
    ("magic tricks", "魔术"),
    ("woodworking", "木工"),
    ("Sichuan cooking", "川菜烹饪"),
]


NICKNAMES_ZH = ["小王", "阿杰", "大伟", "娜娜", "芳芳", "阿洋", "静静", "磊哥"]


NICKNAMES_EN = ["Em", "Jimmy", "Sadie", "Dan", "Lolo", "Mike", "Liv", "Jay"]


UNIVERSITIES = [
    ("Zhejiang University", "浙江大学", "computer science", "计算机"),
    ("Fudan University", "复旦大学", "economics", "经济学"),
    ("Tsinghua University", "清华大学", "electrical engineering", "电子工程"),
    ("Wuhan University", "武汉大学", "mathematics", "数学"),
    ("the University of Edinburgh", "爱丁堡大学", "linguistics", "语言学"),
    ("TU Munich", "慕尼黑工业大学", "mechanical engineering", "机械工程"),
    ("the University of Toronto", "多伦多大学", "statistics", "统计学"),
    ("Sun Yat-sen University", "中山大学", "journalism", "新闻学"),
    ("UC Berkeley", "加州大学伯克利分校", "physics", "物理"),
    ("Nanjing University", "南京大学", "chemistry", "化学"),
]


DREAM_TRIPS = [
    ("seeing the northern lights in Norway", "去挪威看极光"),
    ("walking the Camino de Santiago", "走一次西班牙朝圣之路"),
    ("a road trip along Route 66", "沿66号公路自驾"),
    ("trekking to Everest base camp", "徒步去珠峰大本营"),
    ("a month in Kyoto during cherry blossom season", "樱花季在京都住一个月"),
    ("diving the Great Barrier Reef", "去大堡礁潜水"),
    ("taking the Trans-Siberian railway", "坐西伯利亚大铁路"),
]


TEAMS = [
    ("payments platform", "支付平台"),
    ("search relevance", "搜索相关性"),
    ("growth", "增长"),
    ("data infrastructure", "数据基础设施"),
    ("mobile client", "移动客户端"),
    ("security", "安全"),
    ("developer tools", "开发者工具"),
    ("risk control", "风控"),
]


DEPTS = [
    ("engineering", "研发"),
    ("product", "产品"),
    ("data", "数据"),
    ("operations", "运营"),
]


MONTHS_EN = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
]  # fmt: skip
