"""Golden set v2: vocabulary (see __init__.py)."""

from __future__ import annotations

# (en, zh, utc offset)
CITIES_CN = [
    ("Shanghai", "上海", "+8"),
    ("Hangzhou", "杭州", "+8"),
    ("Beijing", "北京", "+8"),
    ("Shenzhen", "深圳", "+8"),
    ("Chengdu", "成都", "+8"),
    ("Nanjing", "南京", "+8"),
    ("Wuhan", "武汉", "+8"),
    ("Xi'an", "西安", "+8"),
    ("Suzhou", "苏州", "+8"),
    ("Guangzhou", "广州", "+8"),
    ("Xiamen", "厦门", "+8"),
    ("Qingdao", "青岛", "+8"),
    ("Hong Kong", "香港", "+8"),
    ("Taipei", "台北", "+8"),
    ("Harbin", "哈尔滨", "+8"),
    ("Kunming", "昆明", "+8"),
    ("Changsha", "长沙", "+8"),
    ("Dalian", "大连", "+8"),
]


CITIES_WORLD = [
    ("Singapore", "新加坡", "+8"),
    ("Tokyo", "东京", "+9"),
    ("Seoul", "首尔", "+9"),
    ("Sydney", "悉尼", "+10"),
    ("Melbourne", "墨尔本", "+10"),
    ("Berlin", "柏林", "+1"),
    ("Munich", "慕尼黑", "+1"),
    ("Amsterdam", "阿姆斯特丹", "+1"),
    ("Paris", "巴黎", "+1"),
    ("Zurich", "苏黎世", "+1"),
    ("London", "伦敦", "+0"),
    ("Dublin", "都柏林", "+0"),
    ("Edinburgh", "爱丁堡", "+0"),
    ("Toronto", "多伦多", "-5"),
    ("New York", "纽约", "-5"),
    ("Boston", "波士顿", "-5"),
    ("Austin", "奥斯汀", "-6"),
    ("Vancouver", "温哥华", "-8"),
    ("Seattle", "西雅图", "-8"),
    ("San Francisco", "旧金山", "-8"),
]


ALL_CITIES = CITIES_CN + CITIES_WORLD


COMPANIES_EN = [
    "Acme Robotics",
    "Initech",
    "Globex",
    "Umbrella Labs",
    "Hooli",
    "Stark Logistics",
    "Wayne Analytics",
    "Pied Piper",
    "Vandelay Industries",
    "Cyberdyne Systems",
    "Monarch Bank",
    "Northwind Traders",
    "Contoso",
    "Fabrikam",
    "Tyrell Biotech",
    "Aperture Games",
    "Blue Harbor Insurance",
    "Oceanic Air",
]


COMPANIES_ZH = [
    ("Alibaba", "阿里巴巴"),
    ("Tencent", "腾讯"),
    ("ByteDance", "字节跳动"),
    ("Meituan", "美团"),
    ("Huawei", "华为"),
    ("Xiaomi", "小米"),
    ("JD.com", "京东"),
    ("NetEase", "网易"),
    ("NIO", "蔚来"),
    ("Baidu", "百度"),
    ("Trip.com", "携程"),
    ("DJI", "大疆"),
    ("BYD", "比亚迪"),
    ("Kuaishou", "快手"),
]


COMPANIES = [(c, c) for c in COMPANIES_EN] + COMPANIES_ZH


JOBS = [
    ("data engineer", "数据工程师"),
    ("product manager", "产品经理"),
    ("backend engineer", "后端工程师"),
    ("frontend developer", "前端开发"),
    ("UX designer", "交互设计师"),
    ("site reliability engineer", "运维工程师"),
    ("data scientist", "数据科学家"),
    ("QA engineer", "测试工程师"),
    ("marketing manager", "市场经理"),
    ("machine learning engineer", "算法工程师"),
    ("engineering manager", "技术经理"),
    ("mobile developer", "移动端开发"),
    ("security engineer", "安全工程师"),
    ("technical writer", "技术文档工程师"),
    ("solutions architect", "解决方案架构师"),
    ("financial analyst", "财务分析师"),
]


OTHER_JOBS = [
    ("pharmacist", "药剂师"),
    ("high-school teacher", "高中老师"),
    ("lawyer", "律师"),
    ("architect", "建筑师"),
    ("nurse", "护士"),
    ("chef", "厨师"),
    ("civil servant", "公务员"),
    ("photographer", "摄影师"),
    ("accountant", "会计"),
    ("dentist", "牙医"),
    ("pilot", "飞行员"),
    ("journalist", "记者"),
]


# Names. Subject names come in pairs (two subjects share each name); the other pools are
# disjoint from each other so a name in a question points at one memory.
SUBJECT_NAMES_ZH = [
    ("Zhang Wei", "张伟"),
    ("Li Na", "李娜"),
    ("Wang Fang", "王芳"),
    ("Chen Jie", "陈杰"),
    ("Liu Yang", "刘洋"),
    ("Yang Jing", "杨静"),
    ("Zhao Lei", "赵磊"),
]


SUBJECT_NAMES_EN = [
    ("Emily Clark", "Emily Clark"),
    ("James Miller", "James Miller"),
    ("Sarah Johnson", "Sarah Johnson"),
    ("Daniel Brown", "Daniel Brown"),
    ("Laura Wilson", "Laura Wilson"),
    ("Michael Turner", "Michael Turner"),
    ("Olivia Harris", "Olivia Harris"),
]


PEOPLE_ZH = [
    "李雷", "韩梅梅", "周涛", "吴敏", "郑凯", "孙悦", "马骁", "胡静", "朱琳", "高翔",
    "林峰", "何雪", "罗斌", "梁晨", "宋佳", "谢磊", "唐宁", "许诺", "邓超然", "冯媛",
    "曹阳", "彭飞", "曾琪", "萧然", "田甜", "董昊", "潘越", "袁野", "蒋欣", "蔡文",
    "余洁", "杜鹏", "叶子涵", "程远", "魏然", "苏晴", "吕航", "丁一", "沈思", "姜楠",
]  # fmt: skip


PEOPLE_EN = [
    "Tom Baker", "Priya Shah", "Marco Rossi", "Hannah Becker", "Lucas Martin", "Aisha Khan",
    "Ben Carter", "Chloe Dubois", "Diego Ramirez", "Emma Schulz", "Felix Wagner", "Grace Lee",
    "Henry Walsh", "Isabel Costa", "Jack O'Neill", "Kate Morgan", "Liam Murphy", "Mia Novak",
    "Noah Fischer", "Oscar Lindqvist", "Paula Silva", "Quinn Foster", "Ravi Patel",
    "Sofia Rossi", "Tariq Aziz", "Uma Iyer", "Victor Hugo Lane", "Wendy Zhao", "Xavier Blanc",
    "Yuki Tanaka", "Zoe Adams", "Aaron Price", "Bella Ward", "Caleb Hughes", "Daisy Cole",
    "Ethan Brooks", "Fiona Grant", "George Hall", "Holly Reed", "Ivan Petrov",
]  # fmt: skip


ATTENDEES_ZH = [
    "老周", "小林", "王总", "陈经理", "刘工", "黄姐", "小赵", "孙老师", "钱总监", "小郑",
    "杨工", "徐经理", "小何", "马总", "郭工", "小罗",
]  # fmt: skip


ATTENDEES_EN = [
    "Alex", "Jordan", "Morgan", "Taylor", "Sam", "Chris", "Jamie", "Robin", "Casey", "Drew",
    "Pat", "Riley", "Avery", "Kim", "Lee", "Dana",
]  # fmt: skip


REL_OTHERS = [
    ("colleague", "同事"),
    ("friend", "朋友"),
    ("cousin", "表亲"),
    ("neighbour", "邻居"),
    ("old classmate", "老同学"),
    ("teammate", "队友"),
]


DRINKS = [
    ("oolong tea", "乌龙茶"),
    ("black coffee", "黑咖啡"),
    ("green tea", "绿茶"),
    ("soy milk", "豆浆"),
    ("sparkling water", "气泡水"),
    ("jasmine tea", "茉莉花茶"),
    ("flat white", "澳白咖啡"),
    ("pu'er tea", "普洱茶"),
    ("matcha latte", "抹茶拿铁"),
    ("lemon water", "柠檬水"),
    ("hot chocolate", "热可可"),
    ("barley tea", "大麦茶"),
]


DIETS = [
    ("vegetarian, eating no meat or fish", "素食，不吃肉也不吃鱼"),
    ("off pork entirely", "完全不吃猪肉"),
    ("vegan, with no animal products at all", "纯素，任何动物制品都不吃"),
    ("unable to handle spicy food", "一点辣都吃不了"),
    ("pescatarian: fish yes, meat no", "只吃鱼类海鲜，不吃其他肉"),
    ("lactose intolerant, so no milk or cream", "乳糖不耐受，不能喝牛奶也不吃奶油"),
    ("on a low-carb diet with no rice or bread", "在控制碳水，不吃米饭和面包"),
    ("avoiding beef", "不吃牛肉"),
]


ALLERGENS = [
    ("peanuts", "花生"),
    ("shellfish", "贝类海鲜"),
    ("penicillin", "青霉素"),
    ("pollen", "花粉"),
    ("cat dander", "猫毛"),
    ("mango", "芒果"),
    ("sesame", "芝麻"),
    ("latex", "乳胶"),
    ("kiwi fruit", "猕猴桃"),
    ("dust mites", "尘螨"),
    ("eggs", "鸡蛋"),
]


CUISINES = [
    ("Sichuan food", "川菜"),
    ("Cantonese dim sum", "广式早茶"),
    ("Japanese ramen", "日式拉面"),
    ("Italian pasta", "意大利面"),
    ("Korean barbecue", "韩式烤肉"),
    ("Thai curries", "泰式咖喱"),
    ("Mexican tacos", "墨西哥卷饼"),
    ("Yunnan rice noodles", "云南米线"),
    ("Hunan cuisine", "湘菜"),
    ("Vietnamese pho", "越南河粉"),
    ("Indian dal and naan", "印度咖喱配馕"),
    ("hot pot", "火锅"),
]


PETS = [("cat", "猫"), ("dog", "狗"), ("rabbit", "兔子"), ("parrot", "鹦鹉"), ("hamster", "仓鼠")]


PET_NAMES = [
    "Mochi", "Biscuit", "Tofu", "Luna", "Pepper", "Dumpling", "Kiwi", "Nori", "Bao", "Miso",
    "Pudding", "Oreo", "Coco", "Sesame", "Pixel", "Waffles", "Tangyuan", "Peanut",
]  # fmt: skip


PARTNER_NAMES_F = ["Anna", "Clara", "Elena", "Mei", "Xiaoyu", "Sophie", "Lingling", "Yiwen"]


PARTNER_NAMES_M = ["Ben", "David", "Frank", "Hao", "Junjie", "Ryan", "Kai", "Zhiyuan"]


# (relation, names it goes with)
PARTNER_REL = [
    (("wife", "妻子"), PARTNER_NAMES_F),
    (("girlfriend", "女朋友"), PARTNER_NAMES_F),
    (("husband", "丈夫"), PARTNER_NAMES_M),
    (("boyfriend", "男朋友"), PARTNER_NAMES_M),
    (("partner", "伴侣"), PARTNER_NAMES_F + PARTNER_NAMES_M),
]


SIBLINGS = [
    ("older sister", "姐姐"),
    ("younger sister", "妹妹"),
    ("older brother", "哥哥"),
    ("younger brother", "弟弟"),
]


CHILD = [("daughter", "女儿"), ("son", "儿子")]
