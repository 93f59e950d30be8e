"""Golden set v2: questions (see __init__.py)."""

from __future__ import annotations


def Q(en_tune, zh_tune, en_held, zh_held) -> dict:
    return {"tune": {"en": en_tune, "zh": zh_tune}, "heldout": {"en": en_held, "zh": zh_held}}


PROFILE_Q = {
    "home_city": Q(
        ["Which city is the user based in these days?", "Where is the user's home now?"],
        ["用户现在住在哪个城市？", "他目前在哪座城市生活？"],
        [
            "What city should I treat as the user's current location?",
            "Which town does the user call home at present?",
        ],
        ["用户眼下的常住城市是哪里？", "给用户推荐本地餐厅时应该按哪个城市来找？"],
    ),
    "hometown": Q(
        ["Where is the user originally from?", "Which city did the user spend their childhood in?"],
        ["用户老家是哪里的？", "用户是哪里人？"],
        ["What's the user's hometown?", "Where were the user's early years spent?"],
        ["用户的故乡在哪座城市？", "用户小时候生活在什么地方？"],
    ),
    "employer": Q(
        ["Which company does the user work for?", "Who is the user's employer?"],
        ["用户在哪家公司上班？", "用户现在的雇主是谁？"],
        [
            "Where does the user have their job at the moment?",
            "What organisation pays the user's salary now?",
        ],
        ["用户目前供职于哪家企业？", "用户眼下在哪个单位工作，做什么岗位？"],
    ),
    "manager": Q(
        ["Who is the user's boss?", "Who does the user report to?"],
        ["用户的上级是谁？", "用户向谁汇报工作？"],
        ["Who manages the user at work?", "Whose team lead approves the user's work?"],
        ["用户的直属领导叫什么？", "谁是用户的主管？"],
    ),
    "team": Q(
        ["Which team is the user part of?", "What team does the user sit in?"],
        ["用户在哪个团队？", "用户属于哪个组？"],
        [
            "What group does the user belong to at work, and how big is it?",
            "Which squad is the user a member of?",
        ],
        ["用户所在的小组叫什么，有多少人？", "用户隶属于公司的哪个团队？"],
    ),
    # Phrased about the diet the user follows, not "what can't they eat": a food allergy
    # would answer that too.
    "diet": Q(
        ["What diet does the user follow?", "Is the user on any special diet?"],
        ["用户遵循什么样的饮食方式？", "用户有没有特别的饮食方式？"],
        [
            "What are the user's eating habits in terms of diet?",
            "Does the user stick to a specific way of eating?",
        ],
        ["用户在饮食结构上有什么讲究？", "用户的日常饮食模式是怎样的？"],
    ),
    "allergy": Q(
        ["Does the user have any allergies?", "What is the user allergic to?"],
        ["用户对什么东西过敏？", "用户有过敏史吗？"],
        [
            "Which allergens should the user stay away from?",
            "Is there anything that gives the user an allergic reaction?",
        ],
        ["有哪些东西会让用户过敏？", "用户需要避开哪些过敏原？"],
    ),
    "drink": Q(
        ["What beverage does the user enjoy most?", "What's the user's go-to drink?"],
        ["他平时最爱喝什么饮料？", "用户最喜欢的饮品是什么？"],
        [
            "If I bring the user something to drink, what should it be?",
            "Which drink does the user like best?",
        ],
        ["给用户带杯喝的，应该买什么？", "用户偏爱哪种饮品？"],
    ),
    "cuisine": Q(
        ["What kind of food does the user love?", "What's the user's favourite cuisine?"],
        ["用户最爱吃哪种菜？", "用户喜欢什么菜系？"],
        [
            "Which type of restaurant would the user enjoy most?",
            "What food does the user crave most often?",
        ],
        ["带用户去吃饭，选哪类餐馆他最喜欢？", "用户最偏好的口味是哪一类菜？"],
    ),
    "pet": Q(
        ["What is the name of the user's pet?", "Does the user have any pets?"],
        ["用户的宠物叫什么名字？", "用户家里养了什么动物？"],
        [
            "What animal does the user keep at home, and what is it called?",
            "Tell me about the user's pets.",
        ],
        ["用户养的小动物是什么？", "用户有宠物吗？叫什么？"],
    ),
    "partner": Q(
        ["What's the name of the user's partner?", "Who is the user married to or dating?"],
        ["用户的另一半叫什么名字？", "用户的爱人是做什么的？"],
        [
            "What does the user's significant other do for work?",
            "Who is the user's spouse or partner?",
        ],
        ["用户的对象是谁？", "用户的配偶叫什么，干什么工作？"],
    ),
    "sibling": Q(
        ["Where does the user's {rel} live?", "What does the user's {rel} do for a living?"],
        ["用户的{rel}住在哪里？", "用户的{rel}是做什么工作的？"],
        ["Which city is the user's {rel} based in?", "What is the job of the user's {rel}?"],
        ["用户{rel}在哪座城市生活？", "用户{rel}的职业是什么？"],
    ),
    "parents": Q(
        ["Where do the user's parents live?", "Which city are the user's mum and dad in?"],
        ["用户的父母住在哪里？", "用户爸妈在哪个城市？"],
        [
            "In what city do the user's parents reside?",
            "Where would the user go to visit their parents?",
        ],
        ["用户回家看父母要去哪座城市？", "用户的爸爸妈妈现在生活在哪儿？"],
    ),
    "children": Q(
        ["Does the user have kids?", "How old is the user's child?"],
        ["用户有孩子吗？", "用户的孩子多大了？"],
        ["What's the name and age of the user's child?", "Is the user a parent?"],
        ["用户家小孩叫什么，几岁？", "用户当爸妈了吗？"],
    ),
    "phone": Q(
        ["What phone does the user carry?", "Which smartphone model does the user have?"],
        ["用户用的是什么手机？", "用户的手机是哪个型号？"],
        [
            "What mobile device is the user on now?",
            "Which handset should I write instructions for?",
        ],
        ["用户目前拿的是哪款手机？", "给用户写手机操作说明应该按哪个机型？"],
    ),
    "laptop": Q(
        ["What laptop does the user work on?", "Which computer does the user use for work?"],
        ["用户用什么笔记本电脑？", "用户工作用的电脑是哪款？"],
        [
            "What notebook computer does the user have for their job?",
            "Which machine is the user's work computer?",
        ],
        ["用户上班用的是哪台笔记本？", "用户办公电脑是什么型号？"],
    ),
    "editor": Q(
        ["Which code editor does the user work in?", "What IDE does the user use?"],
        ["用户写代码用什么编辑器？", "用户用哪个IDE？"],
        [
            "What does the user write code in these days?",
            "Which development environment does the user prefer?",
        ],
        ["用户现在用什么工具编程？", "用户平常在哪个开发工具里写程序？"],
    ),
    "prog_lang": Q(
        [
            "Which programming language does the user use most at work?",
            "What's the user's main programming language?",
        ],
        ["用户工作中主要用什么编程语言？", "用户最常写哪种语言的代码？"],
        [
            "If I show the user code samples, which language should they be in?",
            "What language does the user mostly program in?",
        ],
        ["给用户写示例代码应该用什么语言？", "用户的主力开发语言是什么？"],
    ),
    "os": Q(
        ["What operating system does the user run?", "Is the user on Mac, Windows or Linux?"],
        ["用户用什么操作系统？", "用户电脑装的是哪个系统？"],
        [
            "Which OS should shell commands for the user target?",
            "What platform is the user's desktop on?",
        ],
        ["给用户的命令行指令应该按哪个系统写？", "用户的电脑系统是Windows还是Linux还是Mac？"],
    ),
    "languages": Q(
        ["Which languages does the user speak?", "What languages is the user fluent in?"],
        ["用户会说哪些语言？", "用户懂几种语言？"],
        [
            "What languages can I use to talk to the user?",
            "Is the user multilingual? Which languages?",
        ],
        ["用户能用哪些语言交流？", "用户掌握哪几门语言？"],
    ),
    "timezone": Q(
        [
            "Which time zone should meetings with the user be scheduled in?",
            "What time zone does the user work in?",
        ],
        ["给用户约会议应该按哪个时区？", "用户在哪个时区工作？"],
        [
            "What's the user's UTC offset for scheduling?",
            "Which clock does the user's working day follow?",
        ],
        ["用户的工作时间是按UTC几区算的？", "和用户约时间要换算成哪个时区？"],
    ),
    "standup": Q(
        [
            "When does the user's team hold its daily stand-up?",
            "What time is the user's morning stand-up?",
        ],
        ["用户团队每天几点开站会？", "用户的晨会是几点？"],
        [
            "At what time does the user's daily sync happen?",
            "When is the user busy with the team's daily check-in?",
        ],
        ["用户每天的站立会议什么时间开始？", "用户组里每日例会几点开？"],
    ),
    "meeting_pref": Q(
        [
            "When does the user prefer to have meetings?",
            "Are there times the user doesn't want meetings?",
        ],
        ["用户喜欢什么时候开会？", "约用户开会有什么时间上的讲究？"],
        [
            "What should I know before putting a meeting in the user's calendar?",
            "Which meeting slots suit the user best?",
        ],
        ["给用户排会议要避开哪些时间？", "用户对开会时间有什么偏好？"],
    ),
    "seat": Q(
        [
            "Aisle or window when booking the user's flight?",
            "Which seat does the user like on a plane?",
        ],
        ["给用户订机票选什么座位？", "用户坐飞机喜欢坐哪儿？"],
        [
            "When I pick a seat on a plane for the user, which kind?",
            "What is the user's seating preference when flying?",
        ],
        ["帮用户值机时选哪种位置？", "用户乘飞机的座位偏好是什么？"],
    ),
    "travel_mode": Q(
        [
            "Does the user prefer trains or planes?",
            "How does the user like to travel between cities?",
        ],
        ["用户出行喜欢坐火车还是飞机？", "用户城际出行一般选什么交通方式？"],
        [
            "For a business trip, which mode of transport would the user pick?",
            "What's the user's preferred way to get to another city?",
        ],
        ["安排出差时用户偏好哪种交通工具？", "用户去外地一般怎么走？"],
    ),
    "hotel_pref": Q(
        ["What kind of hotel does the user like?", "Any hotel preferences for the user?"],
        ["用户喜欢住什么样的酒店？", "给用户订酒店有什么要求？"],
        [
            "When booking accommodation for the user, what should I look for?",
            "What does the user want from a place to stay?",
        ],
        ["为用户预订住宿要注意什么？", "用户对住的地方有什么偏好？"],
    ),
    "answer_style": Q(
        [
            "How should I structure my replies to this person?",
            "What answer format does the user like?",
        ],
        ["回答这个用户时应该怎么组织内容？", "用户喜欢什么样的回答格式？"],
        [
            "In what shape should responses to the user be written?",
            "How does the user want information presented to them?",
        ],
        ["给用户写回复应该是什么样的结构？", "用户希望信息怎么呈现？"],
    ),
    "reply_lang": Q(
        [
            "Which language should my replies to the user be in?",
            "Does the user want answers in Chinese or English?",
        ],
        ["回复用户应该用什么语言？", "用户希望我用中文还是英文回答？"],
        [
            "What language does the user expect responses in?",
            "Should I answer the user in English?",
        ],
        ["用户要求回答用哪种语言？", "给用户回信该用中文吗？"],
    ),
    "hobby": Q(
        ["What does the user do for fun?", "What's the user's hobby?"],
        ["用户业余时间喜欢做什么？", "用户有什么爱好？"],
        ["How does the user spend their free time?", "What pastime does the user enjoy?"],
        ["用户闲下来一般干什么？", "用户的兴趣爱好是什么？"],
    ),
    "music": Q(
        ["What music does the user like?", "What does the user listen to?"],
        ["用户喜欢听什么音乐？", "用户平时听什么歌？"],
        [
            "Which genre of music would the user enjoy?",
            "What kind of playlist should I make for the user?",
        ],
        ["给用户做歌单应该选什么风格？", "用户偏爱哪类音乐？"],
    ),
    "book": Q(
        ["What book is the user reading?", "Which book does the user have on the go?"],
        ["用户最近在读什么书？", "用户手头在看哪本书？"],
        ["What is on the user's nightstand to read?", "Which title is the user partway through?"],
        ["用户目前在看的书是哪本？", "用户正读到一半的书叫什么？"],
    ),
    "commute": Q(
        ["How does the user get to work?", "What's the user's commute like?"],
        ["用户怎么上班？", "用户通勤方式是什么？"],
        [
            "How long is the user's journey to the office, and how do they travel?",
            "By what means does the user reach the office?",
        ],
        ["用户每天去公司路上要多久，怎么去？", "用户上下班靠什么交通工具？"],
    ),
    "car": Q(
        ["What car does the user drive?", "Does the user own a car?"],
        ["用户开什么车？", "用户有车吗？什么车？"],
        ["Which vehicle does the user have?", "What's the make and model of the user's car?"],
        ["用户的车是什么牌子的？", "用户家里的车是哪款？"],
    ),
    "workout": Q(
        ["How does the user keep fit?", "What exercise does the user do?"],
        ["用户平时怎么锻炼？", "用户做什么运动？"],
        ["What's the user's workout routine?", "How does the user stay in shape?"],
        ["用户的健身习惯是怎样的？", "用户多久运动一次，练什么？"],
    ),
    "birthday": Q(
        ["When is the user's birthday?", "What's the user's date of birth?"],
        ["用户的生日是哪天？", "用户几月几号过生日？"],
        [
            "On what date should I wish the user a happy birthday?",
            "When does the user celebrate turning a year older?",
        ],
        ["哪天该祝用户生日快乐？", "用户的出生日期是什么时候？"],
    ),
    "project": Q(
        ["What project is the user mainly working on?", "What's the user's main project at work?"],
        ["用户目前主要负责什么项目？", "用户在做哪个项目？"],
        ["Which initiative does the user lead?", "What is the user's current big piece of work?"],
        ["用户手上最重要的项目是什么？", "用户在牵头哪个项目？"],
    ),
    "channel": Q(
        ["How does the user like to be contacted?", "What's the best way to reach the user?"],
        ["联系用户用什么方式最好？", "用户喜欢用什么工具沟通？"],
        [
            "Which messaging tool should I use for the user?",
            "Should I email the user or message them?",
        ],
        ["找用户应该发消息还是发邮件？", "用户偏好的沟通渠道是什么？"],
    ),
    "office_days": Q(
        ["Which days does the user work from the office?", "Does the user work remotely?"],
        ["用户哪几天去公司？", "用户是远程办公吗？"],
        [
            "On what days can I find the user at the office?",
            "What's the user's hybrid work schedule?",
        ],
        ["用户在家办公的安排是怎样的？", "哪些天用户会在办公室？"],
    ),
    "sleep": Q(
        ["Is the user a morning person or a night owl?", "When does the user usually go to bed?"],
        ["用户一般几点睡觉？", "用户是早起型还是夜猫子？"],
        ["What are the user's sleeping habits?", "When is the user usually asleep?"],
        ["用户的作息是怎样的？", "用户晚上通常什么时候休息？"],
    ),
    "learning": Q(
        ["What is the user learning at the moment?", "What new skill is the user picking up?"],
        ["用户最近在学什么？", "用户在学什么新技能？"],
        ["Is the user taking lessons in anything?", "What is the user trying to get better at?"],
        ["用户在上什么课或者练什么？", "用户正在培养哪方面的新本事？"],
    ),
    "nickname": Q(
        ["What nickname does the user go by?", "Is there a short name the user prefers?"],
        ["用户喜欢别人叫他什么小名？", "用户的昵称是什么？"],
        [
            "What does the user like to be called informally?",
            "How should I address the user casually?",
        ],
        ["平时怎么称呼用户比较亲切？", "用户有什么外号？"],
    ),
    "university": Q(
        ["Where did the user go to university?", "What did the user study?"],
        ["用户是哪个大学毕业的？", "用户大学学的什么专业？"],
        ["Which university is the user an alumnus of?", "What was the user's major?"],
        ["用户在哪里读的大学？", "用户本科读的是什么？"],
    ),
    "dream_trip": Q(
        ["Where does the user dream of travelling?", "What's on the user's travel bucket list?"],
        ["用户最想去哪里旅行？", "用户的旅行心愿是什么？"],
        [
            "What trip would the user love to take someday?",
            "Which journey has the user always wanted to make?",
        ],
        ["用户一直想去的地方是哪里？", "用户梦想中的旅行是什么？"],
    ),
    "name": Q(
        ["What is the user's full name?", "What's the user called?"],
        ["用户叫什么名字？", "用户的全名是什么？"],
        ["What name is on the user's profile?", "How is the user named?"],
        ["用户的姓名是什么？", "这位用户的名字叫什么？"],
    ),
}
