"""Golden set v4: vocabulary (see __init__.py)."""

from __future__ import annotations

CITIES_CN = [
    ("Xiamen", "厦门", "+8"), ("Quanzhou", "泉州", "+8"), ("Wenzhou", "温州", "+8"),
    ("Yangzhou", "扬州", "+8"), ("Luoyang", "洛阳", "+8"), ("Xining", "西宁", "+8"),
    ("Haikou", "海口", "+8"), ("Dali", "大理", "+8"), ("Guilin", "桂林", "+8"),
    ("Baotou", "包头", "+8"), ("Hohhot", "呼和浩特", "+8"), ("Yinchuan", "银川", "+8"),
    ("Tangshan", "唐山", "+8"), ("Weihai", "威海", "+8"), ("Jiaxing", "嘉兴", "+8"),
    ("Huzhou", "湖州", "+8"), ("Nantong", "南通", "+8"), ("Xuzhou", "徐州", "+8"),
    ("Zhuzhou", "株洲", "+8"), ("Mianyang", "绵阳", "+8"), ("Yichang", "宜昌", "+8"),
    ("Sanya", "三亚", "+8"),
]  # fmt: skip


CITIES_WORLD = [
    ("Porto", "波尔图", "+0"), ("Seville", "塞维利亚", "+1"), ("Bologna", "博洛尼亚", "+1"),
    ("Lyon", "里昂", "+1"), ("Ghent", "根特", "+1"), ("Gothenburg", "哥德堡", "+1"),
    ("Bergen", "卑尔根", "+1"), ("Tallinn", "塔林", "+2"), ("Krakow", "克拉科夫", "+1"),
    ("Ljubljana", "卢布尔雅那", "+1"), ("Edinburgh", "爱丁堡", "+0"), ("Cork", "科克", "+0"),
    ("Halifax", "哈利法克斯", "-4"), ("Calgary", "卡尔加里", "-7"), ("Austin", "奥斯汀", "-6"),
    ("Pittsburgh", "匹兹堡", "-5"), ("Wellington", "惠灵顿", "+12"), ("Adelaide", "阿德莱德", "+9:30"),
    ("Hobart", "霍巴特", "+10"), ("Busan", "釜山", "+9"), ("Fukuoka", "福冈", "+9"),
    ("Chiang Mai", "清迈", "+7"), ("Penang", "槟城", "+8"), ("Da Nang", "岘港", "+7"),
]  # fmt: skip


COMPANIES_EN = [
    "Quillfeather Software", "Bramblecrest Logistics", "Ashgrove Health Tech", "Cinderpath Studios",
    "Vantablue Networks", "Pebblestone Credit Union", "Hollowbrook Seeds", "Greyheron Security",
    "Mistral Cove Shipping", "Starling & Ives Consulting", "Wickham Audio", "Lumenfield Solar",
    "Redwater Pharma", "Thistledown Press",
]  # fmt: skip


COMPANIES_ZH = [
    ("Tianlang Data", "天朗数据"), ("Qiushui Pharma", "秋水医药"), ("Xingyao Chips", "星耀芯片"),
    ("Jingwei Maps", "经纬地图"), ("Chunlei Energy", "春雷能源"), ("Yunzhou Logistics", "云舟物流"),
    ("Mofang Games", "魔方游戏"), ("Lvye Agritech", "绿野农业科技"), ("Huanyu Aerospace", "寰宇航天"),
    ("Beichen Securities", "北辰证券"), ("Xiaoxiang Media", "潇湘传媒"), ("Boya Education", "博雅教育"),
    ("Lingxi Robotics", "灵犀机器人"),
]  # fmt: skip


JOB_TITLES = [
    ("site reliability engineer", "SRE工程师"), ("product manager", "产品经理"),
    ("technical writer", "技术文档工程师"), ("machine learning engineer", "机器学习工程师"),
    ("frontend developer", "前端开发"), ("security analyst", "安全分析师"),
    ("hardware test engineer", "硬件测试工程师"), ("supply chain planner", "供应链计划员"),
    ("financial controller", "财务主管"), ("solutions consultant", "解决方案顾问"),
    ("Android developer", "安卓开发"), ("engineering manager", "研发经理"),
    ("interaction designer", "交互设计师"), ("scrum master", "敏捷教练"),
]  # fmt: skip


PEOPLE_ZH = [
    ("Zou Mingyuan", "邹明远"), ("Cai Yichen", "蔡依晨"), ("Li Xiaofeng", "黎晓峰"), ("Su Muyang", "苏沐阳"),
    ("Chang Jingyi", "常静怡"), ("He Zimo", "贺子墨"), ("Gong Xueying", "龚雪莹"), ("Bao Zhenyu", "鲍振宇"),
    ("Che Jianing", "车佳宁"), ("Dai Letian", "戴乐天"), ("Fu Xiaowen", "符晓雯"), ("Jiao Yifan", "焦一凡"),
    ("Ling Shuanghua", "凌霜华"), ("Luo Zijian", "骆子健"), ("Ma Xiaomeng", "马晓萌"), ("Nie Qingyuan", "聂清源"),
    ("Ouyang Qing", "欧阳青"), ("Pang Siyuan", "庞思远"), ("Ruan Wanting", "阮婉婷"), ("Shao Wenbo", "邵文博"),
    ("Tan Yuxuan", "谭雨萱"), ("Wang Jianguo", "汪建国"), ("Wu Jiayi", "武嘉怡"), ("Xia Minglang", "夏明朗"),
    ("Xue Ningning", "薛宁宁"), ("Yin Haoran", "尹浩然"), ("Yuan Mengqi", "袁梦琪"), ("Zhan Zhiwei", "詹志伟"),
    ("Zhang Yinuo", "章一诺"), ("Zhong Kexin", "钟可欣"), ("Zhu Tianyu", "祝天宇"), ("Zuo Siqi", "左思琪"),
    ("Chai Yihang", "柴亦航"), ("Cen Huimin", "岑慧敏"), ("Qiao An", "乔安"), ("Ni Zihan", "倪子涵"),
]  # fmt: skip


PEOPLE_EN = [
    "Priya Raman", "Mattias Ek", "Orla Brennan", "Kwame Asante", "Beatrix Vogel", "Tomasz Wrona",
    "Nadia Haddou", "Fergus Mackay", "Ingrid Solberg", "Rafael Quintero", "Yara Mansour", "Cormac Hale",
    "Mei Lindahl", "Theo Papadakis", "Astrid Nyberg", "Jalen Brooks", "Sofia Marchesi", "Henrik Voss",
    "Ottilie Grey", "Bashir Rahimi", "Daphne Kowalczyk", "Lorcan Quinn", "Valentina Cruz", "Emeka Obi",
    "Hana Novotna", "Rupert Ashby", "Zainab Idowu", "Milo Fairbanks", "Ilse Jansen", "Gus Whitaker",
    "Carmen Villa", "Oskar Nilsson", "Anika Bose", "Ronan Keane", "Selma Yilmaz", "Percy Holloway",
]  # fmt: skip


KIDS_ZH = [("Duoduo", "朵朵", "f"), ("Lele", "乐乐", "m"), ("Nuomi", "糯米", "f"), ("Anan", "安安", "m"),
           ("Guoguo", "果果", "f"), ("Tuantuan", "团团", "m")]  # fmt: skip


KIDS_EN = [("Poppy", "Poppy", "f"), ("Ezra", "Ezra", "m"), ("Isla", "Isla", "f"), ("Rory", "Rory", "m"),
           ("Maeve", "Maeve", "f"), ("Jude", "Jude", "m")]  # fmt: skip


OCCUPATIONS = [
    ("a pharmacist", "药剂师"), ("a primary school teacher", "小学老师"), ("an architect", "建筑师"),
    ("a pastry chef", "甜点师"), ("a firefighter", "消防员"), ("a court interpreter", "法庭口译员"),
    ("an airline pilot", "飞行员"), ("a landscape gardener", "园林设计师"),
]  # fmt: skip


SIBLING_RELS = [("older sister", "姐姐"), ("younger sister", "妹妹"), ("older brother", "哥哥"),
                ("younger brother", "弟弟")]  # fmt: skip


PETS = [
    ("dachshund", "腊肠犬"), ("tabby cat", "狸花猫"), ("lop-eared rabbit", "垂耳兔"), ("cockatiel", "玄凤鹦鹉"),
    ("corgi", "柯基"), ("Siamese cat", "暹罗猫"), ("chinchilla", "龙猫"), ("hamster", "仓鼠"),
    ("greyhound", "灵缇犬"), ("hedgehog", "刺猬"),
]  # fmt: skip


PET_NAMES_ZH = [("Tangyuan", "汤圆"), ("Kele", "可乐"), ("Shaobing", "烧饼"), ("Buding", "布丁"),
                ("Doubao", "豆包"), ("Niangao", "年糕"), ("Huajuan", "花卷"), ("Juzi", "橘子"),
                ("Xueqiu", "雪球"), ("Tudou", "土豆"), ("Banli", "板栗")]  # fmt: skip


PET_NAMES_EN = [(n, n) for n in ["Biscuit", "Pickles", "Waffles", "Nutmeg", "Otis", "Clementine",
                                 "Ziggy", "Crumpet", "Pepper", "Turnip", "Hazel"]]  # fmt: skip


DIETS = [
    ("pescatarian", "鱼素"), ("vegetarian", "素食"), ("vegan", "纯素"), ("halal", "清真"),
    ("low-carb", "低碳水"), ("pork-free", "不吃猪肉的"), ("lactose-free", "无乳糖"),
    ("Mediterranean-style", "地中海式"),
]  # fmt: skip


ALLERGENS = [
    ("peanuts", "花生"), ("shellfish", "贝类"), ("kiwi fruit", "猕猴桃"), ("cat hair", "猫毛"),
    ("mango", "芒果"), ("walnuts", "核桃"), ("bee stings", "蜂蜇"), ("latex", "乳胶"), ("eggs", "鸡蛋"),
]  # fmt: skip


DRINKS = [
    ("flat white", "馥芮白"), ("oolong tea", "乌龙茶"), ("matcha latte", "抹茶拿铁"), ("cold brew", "冷萃咖啡"),
    ("barley tea", "大麦茶"), ("sparkling water", "气泡水"), ("hot chocolate", "热可可"),
    ("jasmine tea", "茉莉花茶"), ("americano", "美式咖啡"), ("pu'er tea", "普洱茶"), ("hojicha", "焙茶"),
    ("soy milk", "豆浆"),
]  # fmt: skip


CUISINES = [
    ("Sichuan", "川菜"), ("Cantonese dim sum", "粤式早茶"), ("Xinjiang", "新疆菜"),
    ("Korean barbecue", "韩式烤肉"), ("Peruvian", "秘鲁菜"), ("Hunan", "湘菜"), ("Vietnamese", "越南菜"),
    ("Oaxacan", "瓦哈卡菜"), ("Hakka", "客家菜"), ("Ethiopian", "埃塞俄比亚菜"),
]  # fmt: skip


DISLIKES = [
    ("coriander", "香菜"), ("olives", "橄榄"), ("blue cheese", "蓝纹奶酪"), ("durian", "榴莲"),
    ("liver", "动物肝脏"), ("bitter melon", "苦瓜"), ("raw onion", "生洋葱"), ("celery", "芹菜"),
]  # fmt: skip


HOBBIES = [
    ("fly fishing", "飞蝇钓"), ("bird photography", "拍鸟"), ("calligraphy", "书法"), ("sourdough baking", "烤酸面包"),
    ("woodworking", "木工"), ("origami", "折纸"), ("stargazing", "观星"), ("letterpress printing", "活版印刷"),
    ("amateur radio", "业余无线电"), ("paper cutting", "剪纸"),
]  # fmt: skip


FITNESS = [
    ("swims three mornings a week", "每周游泳三个早上"), ("runs 5 km before work", "上班前跑5公里"),
    ("goes to a spin class on Tuesdays", "每周二上动感单车课"), ("plays badminton on Thursday nights", "周四晚上打羽毛球"),
    ("does pilates at lunchtime", "午休时做普拉提"), ("cycles up into the hills every Sunday", "每周日骑车上山"),
    ("practises tai chi in the park", "在公园里打太极"),
]  # fmt: skip


INSTRUMENTS = [("cello", "大提琴"), ("ukulele", "尤克里里"), ("guzheng", "古筝"), ("drums", "架子鼓"),
               ("saxophone", "萨克斯"), ("erhu", "二胡"), ("accordion", "手风琴")]  # fmt: skip


READING = [
    ("Nordic crime novels", "北欧犯罪小说"), ("popular science", "科普读物"), ("wuxia novels", "武侠小说"),
    ("graphic novels", "图像小说"), ("historical biographies", "历史人物传记"), ("hard sci-fi", "硬科幻"),
    ("modern poetry", "现代诗集"),
]  # fmt: skip


PHONES = [
    ("Pixel 8a", "Pixel 8a"), ("iPhone 15 Pro", "iPhone 15 Pro"), ("Galaxy S24", "Galaxy S24"),
    ("Xiaomi 14", "小米14"), ("Honor Magic6", "荣耀Magic6"), ("OnePlus 12", "一加12"),
    ("Sony Xperia 10 VI", "索尼Xperia 10 VI"), ("Vivo X100", "vivo X100"), ("Huawei Mate 60", "华为Mate 60"),
    ("Motorola Edge 50", "摩托罗拉Edge 50"),
]  # fmt: skip


LAPTOPS = [
    ("ThinkPad X1 Carbon", "ThinkPad X1 Carbon"), ("MacBook Air M3", "MacBook Air M3"),
    ("Framework 13", "Framework 13"), ("Dell XPS 13", "Dell XPS 13"), ("Surface Laptop 5", "Surface Laptop 5"),
    ("Huawei MateBook X Pro", "华为MateBook X Pro"), ("RedmiBook Pro 15", "红米RedmiBook Pro 15"),
    ("ASUS Zenbook 14", "华硕Zenbook 14"),
]  # fmt: skip


WEARABLES = [
    ("Garmin Forerunner 265", "佳明Forerunner 265"), ("Apple Watch SE", "Apple Watch SE"),
    ("Huawei Watch GT 4", "华为Watch GT 4"), ("Oura ring", "Oura智能戒指"), ("Fitbit Charge 6", "Fitbit Charge 6"),
    ("Xiaomi Smart Band 8", "小米手环8"),
]  # fmt: skip


EDITORS = [(e, e) for e in ["Neovim", "VS Code", "Sublime Text", "Zed", "Emacs", "Lapce", "Cursor",
                            "JetBrains Fleet"]]  # fmt: skip


STANDUPS = [(t, t) for t in ["9:05", "9:35", "10:00", "10:25", "10:45", "11:10", "8:40", "9:50"]]


ANSWER_STYLES = [
    ("bullet points with no preamble", "要点列表，不要开场白"), ("short answers plus a code example", "简短回答加代码示例"),
    ("the conclusion first, details after", "先给结论再讲细节"), ("plain language without jargon", "通俗说法，不用术语"),
    ("a table whenever options are compared", "比较选项时用表格"), ("numbered step-by-step instructions", "编号的分步说明"),
]  # fmt: skip


CHANNELS = [
    ("Signal", "Signal"), ("a phone call", "直接打电话"), ("WeChat voice messages", "微信语音"),
    ("Slack DMs", "Slack私信"), ("Telegram", "Telegram"), ("SMS", "短信"), ("DingTalk", "钉钉"), ("Feishu", "飞书"),
]  # fmt: skip


QUIET_HOURS = [("after 9 pm", "晚上九点以后"), ("before 8 am", "早上八点以前"), ("all day Sunday", "周日全天"),
               ("between noon and 2 pm", "中午十二点到两点"), ("after 7 pm on weekdays", "工作日晚上七点以后")]  # fmt: skip


REPLY_LANGS = [
    ("Chinese, even for questions asked in English", "中文，即使问题是英文的"),
    ("English for anything technical", "技术类问题用英文"),
    ("whatever language the question was asked in", "和提问时同一种语言"),
    ("English, with key terms repeated in Chinese", "英文，关键术语括号里附中文"),
]  # fmt: skip


MEETING_PREFS = [
    ("no meetings on Fridays", "周五不开会"), ("25-minute slots instead of half-hours", "会议定25分钟而不是半小时"),
    ("cameras optional", "可以不开摄像头"), ("an agenda sent the day before", "提前一天发议程"),
    ("mornings only", "只在上午开会"), ("walking meetings when possible", "能边走边开就边走边开"),
]  # fmt: skip


SEATS = [("an aisle seat near the front", "靠前的过道座位"), ("a window seat on the left side", "左侧靠窗座位"),
         ("the exit row", "紧急出口那一排"), ("a seat over the wing", "机翼上方的座位")]  # fmt: skip


AIRLINES = [("KLM", "荷航"), ("Cathay Pacific", "国泰航空"), ("Hainan Airlines", "海南航空"), ("Finnair", "芬兰航空"),
            ("Xiamen Airlines", "厦门航空"), ("Qatar Airways", "卡塔尔航空"), ("Spring Airlines", "春秋航空"),
            ("Aer Lingus", "爱尔兰航空")]  # fmt: skip


HOTEL_PREFS = [
    ("a room on a high floor, away from the lift", "高楼层、离电梯远的房间"), ("apartments with a kitchen", "带厨房的公寓"),
    ("small boutique hotels", "小型精品酒店"), ("somewhere within walking distance of the station", "步行能到车站的住处"),
]  # fmt: skip


COMMUTES = [
    ("cycles to work", "骑自行车上班"), ("takes the metro", "坐地铁通勤"), ("walks twenty minutes to the office", "走路二十分钟到公司"),
    ("drives an old Volvo estate", "开一辆旧沃尔沃旅行车"), ("takes the ferry across the bay", "坐轮渡过海上班"),
    ("rides an e-scooter", "骑电动滑板车"),
]  # fmt: skip


UNIVERSITIES = [
    ("Sun Yat-sen University", "中山大学"), ("Tongji University", "同济大学"), ("Nankai University", "南开大学"),
    ("Sichuan University", "四川大学"), ("KU Leuven", "鲁汶大学"),
    ("University of Leeds", "利兹大学"), ("McGill University", "麦吉尔大学"), ("ETH Zurich", "苏黎世联邦理工学院"),
    ("University of Toronto", "多伦多大学"), ("Harbin Institute of Technology", "哈尔滨工业大学"),
]  # fmt: skip


LANGS_SPOKEN = [
    ("Cantonese and Mandarin", "粤语和普通话"), ("German and English", "德语和英语"),
    ("Spanish and a little Japanese", "西班牙语，会一点日语"), ("Portuguese", "葡萄牙语"), ("Korean", "韩语"),
    ("French and Dutch", "法语和荷兰语"), ("Hokkien", "闽南话"),
]  # fmt: skip


SLEEP = [("an early bird, up at 5:30", "早起型，五点半起床"), ("a night owl, rarely asleep before 1", "夜猫子，一点前很少睡"),
         ("someone who naps twenty minutes after lunch", "午饭后要眯二十分钟的人"),
         ("a light sleeper who needs earplugs", "睡眠浅、得戴耳塞的人")]  # fmt: skip


UI_PREFS = [("dark mode everywhere", "所有软件都用深色模式"), ("large fonts at 125% zoom", "大字体、125%缩放"),
            ("keyboard shortcuts rather than menus", "用快捷键而不是菜单"), ("reduced motion, no animations", "关闭动画效果")]  # fmt: skip


MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]  # fmt: skip


WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
