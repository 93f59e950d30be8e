"""Golden set v3: questions (see __init__.py)."""

from __future__ import annotations


def QQ(en: list[str], zh: list[str]) -> dict:
    return {"en": en, "zh": zh}


ASK = {
    "home_city": QQ(
        ["Remind me, which city do I live in now?", "Quick check: what city is the user based in?",
         "For a delivery address, which city is my home?", "Which city does the user live in nowadays?"],
        ["提醒我一下，我现在定居哪座城市？", "这个用户目前人在哪个城市生活？", "寄东西到我家，该填哪个城市？", "我眼下的常住城市是？"],
    ),
    "timezone": QQ(
        ["Which UTC offset am I on?", "If I set up a call with the user, which zone are they in?",
         "How far is my local time from UTC?"],
        ["我这边用的是UTC加几？", "约用户开会，对方那边是哪个时区？", "我本地时间和UTC差几个小时？"],
    ),
    "hometown": QQ(
        ["Which town do I come from originally?", "Where was the user raised?",
         "What place does the user think of as their hometown?"],
        ["我的家乡是哪儿？", "用户小时候在哪座城市长大？", "用户籍贯是哪个城市？"],
    ),
    "employer": QQ(
        ["Which organisation am I employed by at the moment?", "Name the company the user currently works at.",
         "Where does the user draw a salary from these days?", "Remind me who I work for now."],
        ["我目前受雇于哪家公司？", "用户如今在哪儿高就？", "说一下我现在的东家。", "用户现在的工作单位叫什么？"],
    ),
    "manager": QQ(
        ["Who's my line manager?", "Which person does the user answer to at work?",
         "Who is the user's direct supervisor?"],
        ["我的上级是哪位？", "用户工作上归谁管？", "用户的顶头上司叫什么？"],
    ),
    "team": QQ(
        ["What's the name of my team?", "Which squad is the user in at work?", "What team is the user assigned to?"],
        ["我所在的团队叫什么？", "用户在公司归哪个团队？", "用户被分在哪个组？"],
    ),
    "partner": QQ(
        ["Who am I with, relationship-wise?", "By what name should I refer to the user's partner?",
         "Is there a spouse, girlfriend or boyfriend in the user's life?"],
        ["我的另一半是谁？", "用户的爱人叫什么？", "用户在和谁谈恋爱或者结婚了？"],
    ),
    "children": QQ(
        ["How many kids do I have, and what are their names?", "Has the user got children?",
         "What are my children's names and ages?"],
        ["我有几个孩子，都叫什么？", "用户有小孩了吗？", "我孩子的名字和年龄是？"],
    ),
    "pet": QQ(
        ["Which animal do I share my home with?", "Does the user own a dog, a cat or some other pet?",
         "Remind me of my pet's name."],
        ["我家养的是什么动物？", "用户有没有养猫狗之类的？", "我那只宠物叫啥？"],
    ),
    "diet": QQ(
        ["What's my eating style?", "Is there a diet the user sticks to?",
         "Any dietary regime I should respect when ordering for the user?"],
        ["我的饮食习惯是什么？", "用户平时按什么方式吃饭？", "给用户订餐要照顾什么饮食习惯？"],
    ),
    "allergy": QQ(
        ["Which things give me an allergic reaction?", "List the user's allergies.",
         "Is there anything the user reacts to allergically?"],
        ["我有哪些过敏源？", "列一下用户的过敏项。", "有什么是用户碰了会过敏的？"],
    ),
    "drink": QQ(
        ["What's my favourite drink?", "If I'm buying the user a coffee or a tea, what should it be?",
         "What does the user normally order to drink?"],
        ["我最爱的饮料是什么？", "顺路给用户买饮料，买哪种？", "用户点饮品一般点什么？"],
    ),
    "cuisine": QQ(
        ["Which cuisine do I enjoy most?", "For a team dinner, what food would the user pick?",
         "What style of cooking does the user love?"],
        ["我最爱吃哪个菜系？", "聚餐的话用户会想吃什么菜？", "用户最钟意哪种口味的菜？"],
    ),
    "hobby": QQ(
        ["What pastime am I into?", "What does the user do when not working?",
         "Any hobbies I should know about for the user?"],
        ["我平时玩些什么？", "用户不上班的时候都干嘛？", "用户有哪些兴趣爱好？"],
    ),
    "workout": QQ(
        ["How do I keep fit?", "What sport or exercise does the user practise?",
         "What does the user's exercise routine look like?"],
        ["我靠什么保持身材？", "用户练什么运动？", "用户平常怎么运动？"],
    ),
    "sleep": QQ(
        ["What time do I go to sleep and wake up?", "What's the user's daily sleep routine?",
         "Does the user stay up late or rise early?"],
        ["我几点睡、几点起？", "用户的睡眠作息是什么样？", "用户习惯熬夜还是早起？"],
    ),
    "music": QQ(
        ["Which genre do I listen to?", "Pick a genre the user would like to hear.", "What's on the user's playlist?"],
        ["我爱听哪种风格的音乐？", "用户会喜欢什么音乐？", "用户的歌单里主要是什么？"],
    ),
    "book": QQ(
        ["Which book have I got on the go?", "Which title is the user reading now?",
         "What has the user got open, reading-wise?"],
        ["我现在在读哪本书？", "用户手上正在看什么书？", "用户最近在啃哪本书？"],
    ),
    "editor": QQ(
        ["Which code editor am I using?", "What editor does the user program in?",
         "Which IDE should keyboard shortcuts for the user refer to?"],
        ["我用哪个代码编辑器？", "用户在哪个编辑器里写程序？", "给用户讲快捷键该按哪个IDE来讲？"],
    ),
    "prog_lang": QQ(
        ["What do I mostly write my code in, language-wise?", "Which programming language is the user most fluent in?",
         "In which language should code examples for the user be written?"],
        ["我主要用什么语言编程？", "用户最顺手的编程语言是哪个？", "示例代码给用户写成哪种语言合适？"],
    ),
    "laptop": QQ(
        ["Which laptop model do I use?", "What computer does the user work on day to day?",
         "What's the user's portable computer?"],
        ["我的笔记本是什么型号？", "用户日常用哪台电脑？", "用户随身带的电脑是哪款？"],
    ),
    "phone": QQ(
        ["Which phone model am I using?", "Which handset does the user own?", "What's in the user's pocket, phone-wise?"],
        ["我的手机是什么型号？", "用户现在拿的哪款手机？", "用户手里那部手机是哪家出的？"],
    ),
    "os": QQ(
        ["What OS runs on my computer?", "Which OS family does the user's machine run?",
         "Mac, Windows or Linux: what does the user run?"],
        ["我电脑装的什么系统？", "用户用的操作系统是哪个？", "用户的电脑是Mac、Windows还是Linux？"],
    ),
    "standup": QQ(
        ["What time is my team's daily stand-up?", "When does the user's stand-up start?",
         "At what hour is the user's daily sync?"],
        ["我们组的站会几点开？", "用户的每日站会什么时候开始？", "用户每天几点开晨会？"],
    ),
    "meeting_pref": QQ(
        ["What are my preferences for meetings?", "Any constraints on booking meetings with the user?",
         "How does the user want meetings to be arranged?"],
        ["我开会有哪些偏好？", "约用户开会有什么讲究？", "用户希望会议怎么安排？"],
    ),
    "answer_style": QQ(
        ["In what format do I want answers?", "How should replies to the user be structured?",
         "What answer style suits the user?"],
        ["我希望回答用什么格式？", "回复用户时内容该怎么组织？", "什么样的答复风格适合这个用户？"],
    ),
    "reply_lang": QQ(
        ["In which language do I want your replies?", "Should I answer the user in English, Chinese or something else?",
         "Which language does the user prefer for answers?"],
        ["我希望你用什么语言回答？", "跟用户对话该切换成哪种语言？", "用户偏好哪种语言的答复？"],
    ),
    "nickname": QQ(
        ["What do my friends call me?", "Is there a short name the user likes to be called?",
         "Has the user got a nickname?"],
        ["朋友们怎么叫我？", "用户喜欢别人怎么称呼自己？", "用户的外号是什么？"],
    ),
    "name": QQ(
        ["Remind me of my full name.", "Give me the user's full name.", "How does the user's name read in full?"],
        ["提醒一下我的全名。", "用户完整的姓名怎么写？", "这个用户姓甚名谁？"],
    ),
    "birthday": QQ(
        ["When was I born?", "On which day is the user's birthday?",
         "Which date goes in my calendar for the user's birthday?"],
        ["我哪天出生的？", "用户的生日是几号？", "什么时候该祝用户生日快乐？"],
    ),
    "travel_mode": QQ(
        ["How do I prefer to get from city to city?", "Which mode of transport does the user favour for trips?",
         "Should I book the user a train, a flight or a car?"],
        ["我在城市之间出行喜欢用什么方式？", "用户出行偏好哪种交通工具？", "给用户订行程该订火车、飞机还是车？"],
    ),
    "seat": QQ(
        ["On flights, where do I prefer to be seated?", "What seat should be reserved for the user when flying?",
         "Window or aisle: which does the user go for?"],
        ["我坐飞机喜欢哪种座位？", "给用户订航班该选哪个位置？", "用户偏爱靠窗还是靠过道？"],
    ),
    "hotel_pref": QQ(
        ["What do I look for in a hotel?", "Any must-haves for the user's hotel room?",
         "What kind of accommodation suits the user?"],
        ["我选酒店看重什么？", "用户对酒店房间有什么硬性要求？", "什么样的住宿适合用户？"],
    ),
    "commute": QQ(
        ["How do I travel to work each day?", "What is the user's daily route to the office?",
         "By what means does the user commute?"],
        ["我每天怎么上班？", "用户去公司走什么路线？", "用户通勤靠什么？"],
    ),
    "learning": QQ(
        ["What new thing am I learning?", "Which subject is the user studying?", "What course is the user taking?"],
        ["我最近在学什么新东西？", "用户在进修哪门课？", "用户在学哪方面的知识？"],
    ),
    "dream_trip": QQ(
        ["What's the trip I'd most love to take?", "Which journey is on the user's wish list?",
         "Which far-off place would the user most like to visit?"],
        ["我最想实现的旅行是哪个？", "用户心愿单上的旅行是什么？", "用户梦想去哪儿？"],
    ),
    "sibling": QQ(
        ["Have I got siblings?", "Who are the user's siblings?",
         "Does the user have a brother or a sister?"],
        ["我有没有兄弟姐妹？", "用户的哥哥姐姐或弟弟妹妹叫什么？", "用户是独生子女吗？"],
    ),
    "university": QQ(
        ["Which university did I attend?", "Which subject did the user major in?",
         "Where did the user get their degree?"],
        ["我读的是哪所大学？", "用户大学念的什么专业？", "用户在哪所学校拿的学位？"],
    ),
    "car": QQ(
        ["Which car do I own?", "Tell me the brand and model of the user's vehicle.", "Does the user have a car, and which one?"],
        ["我的车是什么车？", "用户的车是什么品牌型号？", "用户有没有车，开的哪款？"],
    ),
    "channel": QQ(
        ["How should people get in touch with me?", "Which channel does the user want to be contacted on?",
         "What app should I use to message the user?"],
        ["别人联系我用什么渠道最好？", "用户希望通过什么渠道联系？", "给用户发消息用哪个应用？"],
    ),
    "office_days": QQ(
        ["On which days do I go into the office?", "What's the user's remote-versus-office schedule?",
         "Is the user mostly in the office or at home?"],
        ["我每周哪天去办公室？", "用户的远程和坐班是怎么安排的？", "用户在公司还是在家办公？"],
    ),
    "languages": QQ(
        ["What languages can I speak?", "How multilingual is the user?",
         "In which languages can the user hold a conversation?"],
        ["我能讲哪几种语言？", "用户懂哪些语言？", "用户除了母语还会什么语言？"],
    ),
}  # fmt: skip


AS_OF_ASK = {
    "home_city": QQ(
        [
            "In {year}, which city was I living in?",
            "{year}: which city did the user live in at that point?",
        ],
        ["回到{year}年，我那时的家在哪座城？", "{year}年用户的常住地是哪里？"],
    ),
    "employer": QQ(
        ["Who was my employer in {year}?", "In {year}, which company was the user working at?"],
        ["{year}年我在哪个单位上班？", "{year}年那阵子用户是哪家公司的员工？"],
    ),
}


SAME_NAME_ASK = {
    "home_city": QQ(["Where has {name} made their home?", "Which city is home for {name}?"],
                    ["{name}目前安家在何处？", "{name}的居住城市是？"]),
    "employer": QQ(["Which company employs {name}?", "Where is {name} working now?"],
                   ["{name}供职于哪家公司？", "{name}眼下在哪个单位上班？"]),
    "drink": QQ(["Which drink does {name} always go for?", "What should I order for {name} at a café?"],
                ["{name}最爱喝什么饮品？", "请{name}喝东西，点什么合适？"]),
    "editor": QQ(["{name} writes code in which editor?", "Which editor has {name} settled on?"],
                 ["{name}写代码用哪个编辑器？", "{name}的主力编辑器是哪个？"]),
}  # fmt: skip


CODE_ASK = QQ(
    [
        "Look up {code} for me.",
        "What do we know about {code}?",
        "Can you find the note that mentions {code}?",
    ],
    ["帮我找一下{code}。", "{code}这个编号是哪件事？", "查下{code}，看看是什么。"],
)


# Things nobody in the set has; each with words no statement may contain.
NOBODY = [
    ("What's the name of my sailing boat?", "我的帆船叫什么名字？", ["sail", "boat", "帆船", "游艇"]),
    ("Which golf club am I a member of?", "我是哪个高尔夫俱乐部的会员？", ["golf", "高尔夫"]),
    ("What tattoo did I get?", "我纹了个什么图案？", ["tattoo", "纹身", "纹了"]),
    ("Where do I keep my beehives?", "我养的蜜蜂放在哪里？", ["beehive", "bees", "蜜蜂", "蜂箱"]),
    ("What's the registration number of my motorbike?", "我的摩托车牌照是多少？", ["motorbike", "motorcycle", "摩托"]),
    ("Which riding school do I take horse lessons at?", "我在哪家马术俱乐部上课？", ["horse", "riding", "马术"]),
    ("What did I win in the lottery?", "我彩票中了多少钱？", ["lottery", "彩票"]),
    ("Which chess club do I play for?", "我在哪个国际象棋俱乐部下棋？", ["chess", "象棋"]),
]  # fmt: skip


BG_ASK = {
    "flight": QQ(
        ["Tell me about the {month} flight to {dest}.", "Did anything go wrong on the user's trip to {dest} in {month}?",
         "How was the flight I took to {dest} in {month}?"],
        ["{month}那趟去{dest}的飞机怎么样？", "用户{month}飞{dest}有没有遇到问题？", "说说我{month}坐飞机去{dest}的经过。"],
    ),
    "hotel": QQ(
        ["Any notes on the {brand} in {city}?", "Was the {brand} in {city} any good for the user?"],
        ["{city}那家{brand}住得如何？", "用户住{city}{brand}有什么记录？"],
    ),
    "meeting": QQ(
        ["What conclusion did we reach on {topic}?", "Remind me what was agreed regarding {topic}.",
         "Which way did the decision on {topic} go?"],
        ["{topic}最后拍板了什么？", "提醒我一下，{topic}当时怎么定的？", "{topic}这件事商量出什么结果？"],
    ),
    "deploy": QQ(
        ["What went wrong with the {svc} {ver} deployment?", "Which error did {svc} {ver} throw when it shipped?"],
        ["{svc} {ver}部署出了什么问题？", "{svc} {ver}上线报的什么错？"],
    ),
    "incident": QQ(
        ["Why did {svc} suffer {symptom}?", "What was behind {symptom} in {svc}?"],
        ["{svc}那次{symptom}是怎么回事？", "是什么导致了{svc}的{symptom}？"],
    ),
    "order": QQ(
        ["Was there a problem with the {item} from {shop}?", "What happened to the user's {item} order?"],
        ["从{shop}买的{item}有什么下文？", "用户订的{item}最后怎样了？"],
    ),
    "ticket": QQ(
        ["What came of the complaint to {vendor} about {issue}?", "Did {vendor} fix {issue} in the end?"],
        ["找{vendor}反映{issue}，后来怎样了？", "{vendor}最终有没有解决{issue}？"],
    ),
    "help": QQ(
        ["How did {task} go when you helped me?", "Any result from {task} with the user?"],
        ["你上次帮我{task}，后来怎样？", "替用户{task}那回，结果如何？"],
    ),
    "person:city": QQ(["Which city does my {rel} {p} live in?", "Where is {p} living these days?"],
                      ["{p}现在住哪个城市？", "我那位{rel}{p}在哪儿生活？"]),
    "person:job": QQ(["Who does my {rel} {p} work for?", "What kind of work does {p} do?"],
                     ["{p}是在哪个单位上班的？", "我{rel}{p}是干什么的？"]),
    "person:pet": QQ(["Does {p} have a pet?", "What animal does my {rel} {p} keep?"],
                     ["{p}有没有养宠物？", "我{rel}{p}家里养的啥？"]),
    "person:allergy": QQ(["Is {p} allergic to anything?", "What should my {rel} {p} stay away from because of allergies?"],
                         ["{p}身上有什么过敏需要注意？", "我{rel}{p}碰不得什么？"]),
    "person:drink": QQ(["What drink should I get for {p}?", "What does my {rel} {p} usually drink?"],
                       ["给{p}买喝的买什么？", "我{rel}{p}平常喝什么？"]),
    "person:birthday": QQ(["What day is {p}'s birthday?", "When was my {rel} {p} born?"],
                          ["{p}哪天生日？", "我{rel}{p}生日在几月几号？"]),
    "person:hobby": QQ(["What are {p}'s hobbies?", "What is my {rel} {p} passionate about?"],
                       ["{p}业余喜欢什么？", "我{rel}{p}热衷于什么？"]),
    "person:diet": QQ(["How does {p} eat, diet-wise?", "Is my {rel} {p} vegetarian or on some other diet?"],
                      ["{p}饮食上有什么习惯？", "我{rel}{p}平时怎么吃？"]),
    "project_note": QQ(
        ["What's new with {comp} on {proj}?", "Give me the latest on {proj}: {comp}."],
        ["{proj}的{comp}有什么新进展？", "说说{proj}项目里{comp}的最新情况。"],
    ),
    "purchase": QQ(
        ["What did the {item} cost me?", "How much was the user's {item}, and where was it bought?"],
        ["{item}当时多少钱买的？", "用户的{item}多少钱、在哪买的？"],
    ),
    "dinner": QQ(
        ["Was {rest} any good?", "What did we eat at {rest}?"],
        ["{rest}好吃吗？", "在{rest}我们吃了些什么？"],
    ),
    "appointment": QQ(
        ["What time is my {appt} booked for?", "When does the user have the {appt}?"],
        ["我的{appt}是几点？", "用户的{appt}排在什么时候？"],
    ),
    "media": QQ(
        ["Did I like {film}?", "Would the user recommend {film}?"],
        ["《{film}》我看了觉得如何？", "用户怎么评价《{film}》？"],
    ),
    "invoice": QQ(
        ["What did {vendor} charge for?", "Tell me about the invoice {vendor} sent."],
        ["{vendor}收的是什么钱？", "说说{vendor}寄来的那张发票。"],
    ),
    "event": QQ(
        ["How did {event} in {city} go?", "Did the user enjoy {event}?"],
        ["{city}的{event}去了感觉如何？", "用户喜欢{event}吗？"],
    ),
}  # fmt: skip
