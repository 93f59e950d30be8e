"""Golden set v3: vocabulary (see __init__.py)."""

from __future__ import annotations

CITIES_CN = [
    ("Ningbo", "宁波", "+8"),
    ("Hefei", "合肥", "+8"),
    ("Fuzhou", "福州", "+8"),
    ("Jinan", "济南", "+8"),
    ("Zhengzhou", "郑州", "+8"),
    ("Wuxi", "无锡", "+8"),
    ("Zhuhai", "珠海", "+8"),
    ("Guiyang", "贵阳", "+8"),
    ("Nanning", "南宁", "+8"),
    ("Lanzhou", "兰州", "+8"),
    ("Taiyuan", "太原", "+8"),
    ("Shenyang", "沈阳", "+8"),
    ("Changzhou", "常州", "+8"),
    ("Shaoxing", "绍兴", "+8"),
    ("Yantai", "烟台", "+8"),
    ("Nanchang", "南昌", "+8"),
    ("Macau", "澳门", "+8"),
    ("Urumqi", "乌鲁木齐", "+8"),
]


CITIES_WORLD = [
    ("Lisbon", "里斯本", "+0"),
    ("Madrid", "马德里", "+1"),
    ("Vienna", "维也纳", "+1"),
    ("Prague", "布拉格", "+1"),
    ("Copenhagen", "哥本哈根", "+1"),
    ("Oslo", "奥斯陆", "+1"),
    ("Helsinki", "赫尔辛基", "+2"),
    ("Montreal", "蒙特利尔", "-5"),
    ("Chicago", "芝加哥", "-6"),
    ("Denver", "丹佛", "-7"),
    ("Portland", "波特兰", "-8"),
    ("Auckland", "奥克兰", "+12"),
    ("Perth", "珀斯", "+8"),
    ("Bangkok", "曼谷", "+7"),
    ("Kuala Lumpur", "吉隆坡", "+8"),
    ("Osaka", "大阪", "+9"),
    ("Barcelona", "巴塞罗那", "+1"),
    ("Stockholm", "斯德哥尔摩", "+1"),
    ("Brussels", "布鲁塞尔", "+1"),
    ("Manchester", "曼彻斯特", "+0"),
    ("Atlanta", "亚特兰大", "-5"),
]


COMPANIES_EN = [
    "Larkspur Analytics",
    "Brightwater Freight",
    "Tidewell Energy",
    "Marrowgate Games",
    "Copperfield Retail",
    "Halcyon Maps",
    "Orchid Lane Bank",
    "Saltmarsh Robotics",
    "Kestrel Aviation Software",
    "Ferncastle Media",
    "Juniper Ridge Labs",
    "Northbeam Telecom",
    "Silverpine Insurance",
    "Oakhollow Foods",
]


COMPANIES_ZH = [
    ("Xinghe Cloud", "星河云科技"),
    ("Lanhai Logistics", "蓝海物流"),
    ("Qingmu Education", "青木教育"),
    ("Yunfan Auto", "云帆汽车"),
    ("Songlin Biotech", "松林生物"),
    ("Jinqiao Fintech", "金桥金融科技"),
    ("Baiyun Games", "白云游戏"),
    ("Haitang Retail", "海棠零售"),
    ("Mingjing Robotics", "明镜机器人"),
    ("Chuanxin Semiconductor", "川芯半导体"),
    ("Yuelu Media", "岳麓传媒"),
    ("Dongting Foods", "洞庭食品"),
]


JOB_TITLES = [
    ("analytics engineer", "分析工程师"),
    ("platform engineer", "平台工程师"),
    ("UX researcher", "用户研究员"),
    ("iOS developer", "iOS开发"),
    ("release manager", "发布经理"),
    ("bioinformatician", "生物信息工程师"),
    ("developer advocate", "开发者布道师"),
    ("embedded engineer", "嵌入式工程师"),
    ("database administrator", "数据库管理员"),
    ("cloud architect", "云架构师"),
    ("game designer", "游戏策划"),
    ("penetration tester", "渗透测试工程师"),
    ("localisation manager", "本地化经理"),
    ("QA automation lead", "自动化测试负责人"),
]


# Other people: (romanised / English, Chinese). English names are the same in both.
PEOPLE_ZH = [
    ("Zhou Ning", "周宁"), ("Fang Yiming", "方一鸣"), ("Xu Qinghe", "许清和"),
    ("Luo Jiayi", "罗佳怡"), ("He Ziqian", "何子谦"), ("Cao Yuting", "曹雨婷"),
    ("Jiang Hanwen", "蒋瀚文"), ("Deng Xiaoman", "邓晓曼"), ("Yu Haochen", "俞浩辰"),
    ("Song Wanqing", "宋婉清"), ("Pan Yichen", "潘亦辰"), ("Du Ruoxi", "杜若溪"),
    ("Xie Mingxuan", "谢明轩"), ("Qian Shuang", "钱爽"), ("Ren Kaiwen", "任楷文"),
    ("Hu Lanxin", "胡兰馨"), ("Shen Yuhang", "沈宇航"), ("Wei Tingting", "魏婷婷"),
    ("Kong Fanxu", "孔繁旭"), ("Yao Jingwen", "姚静雯"), ("Tian Zihao", "田子豪"),
    ("Mo Xiaoqi", "莫小琪"), ("Guo Chenyu", "郭晨宇"), ("Qin Yanan", "秦雅楠"),
    ("Liang Boyuan", "梁博远"), ("Fu Jiaqi", "付佳琪"), ("Xiong Ye", "熊烨"),
    ("Ke Siyu", "柯思宇"), ("Bai Mengyao", "白梦瑶"), ("Zeng Guanghui", "曾光辉"),
    ("Ding Shiyu", "丁诗雨"), ("Lai Junhao", "赖俊豪"), ("Shi Ruolan", "石若兰"),
    ("Meng Fanyu", "孟凡宇"), ("Yan Qiuyue", "严秋月"), ("Han Xiaobei", "韩小北"),
]  # fmt: skip


PEOPLE_EN = [
    "Colm Farrell", "Beatriz Nunes", "Yusuf Demir", "Greta Holm", "Anton Petrov",
    "Ines Moreau", "Callum Reid", "Saoirse Doyle", "Marek Novak", "Lucia Romano",
    "Tamsin Blake", "Jonah Pike", "Keiko Mori", "Felix Brandt", "Ruth Adeyemi",
    "Nikhil Desai", "Elsa Berg", "Hugo Laurent", "Wren Gallagher", "Dario Conti",
    "Freya Lund", "Amos Kariuki", "Pia Schulte", "Silas Grant", "Tova Lindgren",
    "Omar Haddad", "Clio Vance", "Bram de Vries", "Juno Park", "Rhys Morgan",
    "Alma Ruiz", "Gideon Shaw", "Ivy Tan", "Ezio Marchetti", "Noor Aziz", "Leif Sandberg",
]  # fmt: skip


# Relations for facts about other people: none of them implies a profile fact of the
# user's own (no siblings, partners or children).
RELATIONS = [
    ("colleague", "同事"),
    ("neighbour", "邻居"),
    ("cousin", "表姐"),
    ("cousin", "堂弟"),
    ("school friend", "发小"),
    ("mentor", "导师"),
    ("landlord", "房东"),
    ("friend", "朋友"),
    ("teammate", "队友"),
    ("client", "客户"),
    ("former flatmate", "前室友"),
]


# Family and pet names follow the subject's language (and the relative's gender).
PARTNER_NAMES = {
    "en": {"f": ["Nell", "Odile", "Linnea", "Hazel"], "m": ["Caspar", "Rowan", "Mateo", "Ezra"]},
    "zh": {"f": [("Siqi", "思琪"), ("Jiahui", "佳慧"), ("Ruoyu", "若语"), ("Xiaowen", "晓雯")],
           "m": [("Yifan", "一帆"), ("Mingze", "明泽"), ("Qiming", "启明"), ("Haoyang", "浩洋")]},
}  # fmt: skip


PARTNER_REL = [
    (("wife", "妻子"), "f"),
    (("husband", "丈夫"), "m"),
    (("girlfriend", "女朋友"), "f"),
    (("boyfriend", "男朋友"), "m"),
    (("fiancée", "未婚妻"), "f"),
    (("fiancé", "未婚夫"), "m"),
]


KID_NAMES = {
    "en": {"f": ["Bea", "Mila", "Pippa", "Maisie"], "m": ["Otis", "Arlo", "Rufus", "Finn"]},
    "zh": {"f": [("Guoguo", "果果"), ("Xixi", "希希"), ("Miaomiao", "苗苗"), ("Tiantian", "甜甜")],
           "m": [("Tuantuan", "团团"), ("Lele", "乐乐"), ("Dingding", "丁丁"), ("Haohao", "豪豪")]},
}  # fmt: skip


KIDS = [(("daughter", "女儿"), "f"), (("son", "儿子"), "m")]


SIBLING_REL = [
    (("older sister", "姐姐"), "f"),
    (("younger brother", "弟弟"), "m"),
    (("older brother", "哥哥"), "m"),
    (("younger sister", "妹妹"), "f"),
]


SIBLING_NAMES = {
    "en": {"f": ["Agnes", "Marta", "Rosalind"], "m": ["Ruben", "Jasper", "Cormac"]},
    "zh": {"f": [("Yuqing", "雨晴"), ("Shuting", "书婷"), ("Xiaoyun", "晓云")],
           "m": [("Haoran", "浩然"), ("Zichen", "子辰"), ("Junyi", "俊逸")]},
}  # fmt: skip


PETS = [
    ("tortoise", "乌龟"),
    ("corgi", "柯基"),
    ("ragdoll cat", "布偶猫"),
    ("budgie", "虎皮鹦鹉"),
    ("goldfish", "金鱼"),
    ("border collie", "边牧"),
    ("British shorthair", "英短猫"),
    ("ferret", "雪貂"),
    ("guinea pig", "豚鼠"),
    ("shiba inu", "柴犬"),
]


PET_NAMES = {
    "en": ["Pretzel", "Juniper", "Bagel", "Sprocket", "Marmalade", "Bramble"],
    "zh": [("Dounai", "豆奶"), ("Mantou", "馒头"), ("Xiaoman", "小满"), ("Youtiao", "油条"),
           ("Shizi", "柿子"), ("Huajuan", "花卷")],
}  # fmt: skip


DIETS = [
    ("pescatarian", "海鲜素"),
    ("vegan", "纯素"),
    ("vegetarian", "蛋奶素"),
    ("low-carb", "低碳水"),
    ("flexitarian", "弹性素食"),
    ("keto", "生酮"),
]


ALLERGENS = [
    ("buckwheat", "荞麦"),
    ("celery", "芹菜"),
    ("feathers", "羽毛"),
    ("strawberries", "草莓"),
    ("wasp stings", "黄蜂蜇伤"),
    ("aspirin", "阿司匹林"),
    ("peaches", "桃子"),
    ("ragweed", "豚草"),
    ("sulfites", "亚硫酸盐"),
]


DRINKS = [
    ("hojicha latte", "焙茶拿铁"),
    ("cortado", "可塔朵"),
    ("chrysanthemum tea", "菊花茶"),
    ("Hong Kong lemon tea", "港式柠檬茶"),
    ("oat milk latte", "燕麦拿铁"),
    ("kombucha", "康普茶"),
    ("Tieguanyin", "铁观音"),
    ("rooibos", "南非博士茶"),
    ("masala chai", "马萨拉茶"),
    ("coconut latte", "生椰拿铁"),
    ("Longjing green tea", "龙井"),
]


CUISINES = [
    ("Yunnan food", "云南菜"),
    ("Lebanese mezze", "黎巴嫩小菜"),
    ("Peruvian food", "秘鲁菜"),
    ("Teochew cooking", "潮汕菜"),
    ("Georgian food", "格鲁吉亚菜"),
    ("Hakka food", "客家菜"),
    ("Sri Lankan curries", "斯里兰卡咖喱"),
    ("Oaxacan food", "瓦哈卡菜"),
    ("Xinjiang food", "新疆菜"),
    ("Malaysian laksa", "马来西亚叻沙"),
    ("Guizhou sour soup dishes", "贵州酸汤菜"),
]


HOBBIES = [
    ("bouldering", "抱石攀岩"),
    ("bookbinding", "手工装订书本"),
    ("urban sketching", "城市速写"),
    ("geocaching", "地理寻宝"),
    ("origami", "折纸"),
    ("building mechanical keyboards", "组装客制化键盘"),
    ("playing Go", "下围棋"),
    ("embroidery", "刺绣"),
    ("kite flying", "放风筝"),
    ("cyanotype printing", "蓝晒印相"),
]


WORKOUTS = [
    ("swims 2 km three mornings a week", "每周有三个早上游两公里"),
    ("goes to CrossFit classes", "去上CrossFit课"),
    ("runs along the river before work", "上班前沿着河边跑步"),
    ("plays badminton on Thursday evenings", "周四晚上打羽毛球"),
    ("does kettlebell sessions at home", "在家练壶铃"),
    ("rides up into the hills on Sundays", "周日骑车爬山"),
    ("does yoga twice a week", "每周练两次瑜伽"),
    ("plays five-a-side football", "踢五人制足球"),
]


SLEEP = [
    ("is in bed by 10:30 and up at 6", "十点半上床、六点起床"),
    ("is a night owl who works best after 11 pm", "是夜猫子，晚上十一点以后效率最高"),
    ("needs a 20-minute nap after lunch", "午饭后要睡二十分钟"),
    ("sleeps with earplugs and an eye mask", "睡觉要戴耳塞和眼罩"),
    ("gets up at 5 am to work while it's quiet", "早上五点起床趁安静干活"),
]


MUSIC = [
    ("bossa nova", "波萨诺瓦"),
    ("post-rock", "后摇"),
    ("90s Cantopop", "九十年代粤语流行歌"),
    ("baroque harpsichord music", "巴洛克羽管键琴音乐"),
    ("synthwave", "合成器浪潮"),
    ("desert blues from Mali", "马里沙漠布鲁斯"),
    ("Japanese city pop", "日本城市流行乐"),
    ("Mongolian folk rock", "蒙古民谣摇滚"),
]


BOOKS = [
    ("Klara and the Sun", "克拉拉与太阳"),
    ("The Remains of the Day", "长日将尽"),
    ("Brothers", "兄弟"),
    ("The Overstory", "上层林冠"),
    ("Database Internals", "数据库系统内幕"),
    ("Pachinko", "柏青哥"),
    ("The Left Hand of Darkness", "黑暗的左手"),
    ("Red Sorghum", "红高粱家族"),
    ("Thinking in Systems", "系统之美"),
    ("A Gentleman in Moscow", "莫斯科绅士"),
]


EDITORS = [
    ("Helix", "Helix"),
    ("Kakoune", "Kakoune"),
    ("Nova", "Nova"),
    ("GoLand", "GoLand"),
    ("WebStorm", "WebStorm"),
    ("CLion", "CLion"),
    ("Fleet", "Fleet"),
    ("RustRover", "RustRover"),
    ("Windsurf", "Windsurf"),
    ("Lapce", "Lapce"),
]


PROG_LANGS = ["Elixir", "OCaml", "Swift", "Zig", "C#", "Haskell", "Ruby", "Julia", "Dart", "PHP"]


LAPTOPS = [
    ("a ThinkPad Z13", "ThinkPad Z13"),
    ("an Acer Swift Go 14", "宏碁Swift Go 14"),
    ("an HP EliteBook 840", "惠普EliteBook 840"),
    ("a Lenovo Yoga Slim 7", "联想Yoga Slim 7"),
    ("an Honor MagicBook 14", "荣耀MagicBook 14"),
    ("an ASUS Zephyrus G14", "华硕幻14"),
    ("an LG gram 16", "LG gram 16"),
    ("a Dell Latitude 7440", "戴尔Latitude 7440"),
]


PHONES = [
    ("Pixel 9 Pro", "Pixel 9 Pro"),
    ("iPhone 16e", "iPhone 16e"),
    ("Xiaomi 15 Ultra", "小米15 Ultra"),
    ("Huawei Pura 70", "华为Pura 70"),
    ("OPPO Find X7", "OPPO Find X7"),
    ("Nothing Phone (2)", "Nothing Phone (2)"),
    ("Fairphone 5", "Fairphone 5"),
    ("Xperia 5 V", "索尼Xperia 5 V"),
    ("Galaxy Z Flip6", "三星Galaxy Z Flip6"),
    ("realme GT 6", "真我GT 6"),
]


OSES = [
    "openSUSE Tumbleweed",
    "Linux Mint",
    "elementary OS",
    "FreeBSD",
    "Manjaro",
    "ChromeOS",
    "NixOS",
    "Pop!_OS",
]


STANDUP_TIMES = ["8:50", "9:10", "9:25", "9:40", "10:05", "10:20", "10:50", "11:15"]


MEETING_PREFS = [
    ("no calls before 9:30", "九点半以前不约会议"),
    ("meetings capped at 25 minutes", "会议不超过25分钟"),
    ("Friday afternoons kept free of meetings", "周五下午不排会"),
    ("an agenda a day in advance", "提前一天拿到议程"),
    ("cameras optional on video calls", "视频会议可以不开摄像头"),
    ("one-on-ones done as walks", "一对一边散步边聊"),
    ("meetings grouped into two fixed days", "会议集中安排在固定的两天"),
]


ANSWER_STYLES = [
    ("bullet points instead of long paragraphs", "要点列表，别写大段文字"),
    ("the short answer first, details after", "先给结论，再展开细节"),
    ("code samples rather than prose", "多给代码示例，少讲道理"),
    ("plain words without jargon", "用大白话，不要术语"),
    ("a comparison grid when there are several options", "有多个选项时列对比表"),
    ("a source for every claim", "每个论断都附上出处"),
]


REPLY_LANGS = [
    ("replies in Simplified Chinese even when asked in English", "英文提问同样用简体中文答复"),
    ("English replies with the Chinese term in brackets", "用英文回复，专业词后面括号注中文"),
    ("answers in whatever language the question was in", "问题用什么语言就用什么语言回答"),
    ("British spelling in English replies", "英文回复用英式拼写"),
    ("replies in Traditional Chinese characters", "用繁体中文回复"),
]


NICKNAMES = {
    "en": ["Kit", "Bear", "Ziggy", "Sunny", "Pip", "Moss"],
    "zh": [("Xiaoqiu", "小秋"), ("Amu", "阿木"), ("Axing", "阿星"), ("Dabai", "大白"), ("Qiqi", "七七"),
           ("Ale", "阿乐")],
}  # fmt: skip


TRAVEL_MODES = [
    ("the high-speed train for any trip under five hours", "五小时以内的路程坐高铁"),
    ("overnight sleeper trains", "坐夜班卧铺火车"),
    ("driving, with a break every two hours", "自驾，每两小时歇一次"),
    ("economy flights with cabin bags only", "坐经济舱、只带随身行李"),
    ("long-distance coaches because they are cheap", "坐长途大巴，图便宜"),
]


SEATS = [("aisle", "过道边"), ("window", "靠窗"), ("front-row", "前排")]


HOTEL_PREFS = [
    ("a quiet room on a high floor", "高楼层的安静房间"),
    ("a kitchenette for stays longer than three nights", "住三晚以上要带小厨房"),
    ("somewhere within walking distance of the venue", "离会场走路就能到"),
    ("a twin room rather than a king", "双床房而不是大床房"),
    ("a hotel with a 24-hour gym", "有24小时健身房的酒店"),
]


COMMUTES = [
    ("takes metro line 2 and walks the last ten minutes", "坐地铁2号线，再步行十分钟"),
    ("cycles 8 km each way", "单程骑车8公里"),
    ("drives to a park-and-ride and takes the tram in", "开车到换乘停车场，再转有轨电车"),
    ("walks to the office in a quarter of an hour", "步行一刻钟"),
    ("takes the company shuttle bus", "坐公司班车"),
]


LEARNING = [
    ("Portuguese", "葡萄牙语"),
    ("Korean", "韩语"),
    ("sign language", "手语"),
    ("music theory", "乐理"),
    ("Cantonese", "粤语"),
    ("data visualisation", "数据可视化"),
    ("Japanese", "日语"),
    ("watercolour painting", "水彩画"),
    ("classical guitar", "古典吉他"),
]


DREAM_TRIPS = [
    ("taking the Qinghai-Tibet railway to Lhasa", "坐青藏铁路去拉萨"),
    ("hiking in Patagonia", "去巴塔哥尼亚徒步"),
    ("camping under the aurora in Finnish Lapland", "去芬兰拉普兰露营看极光"),
    ("a safari in Tanzania", "去坦桑尼亚看动物大迁徙"),
    ("driving Iceland's ring road", "自驾冰岛环岛公路"),
    ("following the Silk Road to Dunhuang", "沿丝绸之路一路走到敦煌"),
    ("walking the Kumano Kodo", "走一趟熊野古道"),
]


UNIVERSITIES = [
    ("Lanzhou University", "兰州大学"),
    ("Ocean University of China", "中国海洋大学"),
    ("Shandong University", "山东大学"),
    ("Yunnan University", "云南大学"),
    ("Aalto University", "阿尔托大学"),
    ("Trinity College Dublin", "都柏林圣三一学院"),
    ("the University of Auckland", "奥克兰大学"),
    ("TU Delft", "代尔夫特理工大学"),
]


MAJORS = [
    ("agronomy", "农学"),
    ("philosophy", "哲学"),
    ("materials science", "材料科学"),
    ("urban planning", "城市规划"),
    ("library science", "图书馆学"),
    ("oceanography", "海洋学"),
]


CARS = [
    ("a white BYD Seal", "一辆白色比亚迪海豹"),
    ("a grey Volvo XC40", "一辆灰色沃尔沃XC40"),
    ("a second-hand Honda Jazz", "一辆二手本田飞度"),
    ("a Zeekr 001", "一辆极氪001"),
    ("a green Mini Cooper", "一辆绿色Mini Cooper"),
    ("a Li Auto L7", "一辆理想L7"),
    ("a Skoda Octavia estate", "一辆斯柯达明锐旅行版"),
]


CHANNELS = [
    ("WhatsApp", "WhatsApp"),
    ("Signal", "Signal"),
    ("Discord", "Discord"),
    ("iMessage", "iMessage"),
    ("Zulip", "Zulip"),
    ("WeCom", "企业微信"),
    ("QQ", "QQ"),
]


OFFICE_DAYS = [
    ("in the office Monday to Wednesday, remote the rest", "周一到周三去办公室，其余时间远程"),
    ("fully remote", "完全远程办公"),
    ("in the office on Thursdays only", "只有周四去公司"),
    ("on site every weekday", "每个工作日都去公司坐班"),
    ("alternating weeks between home and office", "隔周轮换在家和在公司"),
]


LANGS_SPOKEN = [
    ("Mandarin and Shanghainese", "普通话和上海话"),
    ("English, Spanish and some Catalan", "英语、西班牙语和一点加泰罗尼亚语"),
    ("German and Swedish", "德语和瑞典语"),
    ("Mandarin, English and basic Thai", "普通话、英语和基础泰语"),
    ("Hokkien and Mandarin", "闽南话和普通话"),
    ("French and Arabic", "法语和阿拉伯语"),
]


TEAMS = [
    ("platform team", "平台组"),
    ("payments squad", "支付小组"),
    ("growth team", "增长团队"),
    ("data platform group", "数据平台组"),
    ("developer experience team", "研发效能组"),
    ("ranking quality team", "排序质量组"),
    ("mobile guild", "移动端组"),
    ("trust and safety team", "风控安全组"),
    ("infrastructure team", "基础设施组"),
    ("analytics team", "数据分析组"),
]


MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]  # fmt: skip
