"""Golden set v4: profile keys (see __init__.py)."""

from __future__ import annotations

from .params import D
from .vocabulary import (
    AIRLINES,
    ALLERGENS,
    ANSWER_STYLES,
    CHANNELS,
    COMMUTES,
    CUISINES,
    DIETS,
    DISLIKES,
    DRINKS,
    EDITORS,
    FITNESS,
    HOBBIES,
    HOTEL_PREFS,
    INSTRUMENTS,
    JOB_TITLES,
    LANGS_SPOKEN,
    LAPTOPS,
    MEETING_PREFS,
    PHONES,
    QUIET_HOURS,
    READING,
    REPLY_LANGS,
    SEATS,
    SLEEP,
    STANDUPS,
    UI_PREFS,
    UNIVERSITIES,
    WEARABLES,
)


def Q(en: list[str], zh: list[str]) -> dict:
    return {"en": en, "zh": zh}


class Spec:
    def __init__(
        self, say, ask, pool=None, pred=None, change=None, now=None, make=None, start=None
    ):
        self.say, self.ask, self.pool, self.pred = say, ask, pool, pred
        self.change, self.now, self.make = change, now, make
        self.start = start or (D(2018, 2, 1), D(2026, 6, 30))


PROFILE: dict[str, Spec] = {
    "home_city": Spec(
        say=Q(["I live in {x}.", "Home base: {x}", "User mentioned that they live in {x}.", "Based in {x} — that's home."],
              ["我住在{x}。", "常住城市：{x}", "用户提到自己住在{x}", "家安在{x}", "现在 base 在{x}"]),
        change=Q(["Moved from {old} to {x} in {when}.", "Relocated to {x} ({when}); no longer in {old}.",
                  "User said they left {old} for {x} in {when}."],
                 ["{when}从{old}搬到了{x}", "{when}起定居{x}，不再住{old}", "用户说{when}已经从{old}搬去{x}了",
                  "{when} relocate 到了{x}，之前一直在{old}"]),
        ask=Q(["Which city should I use as {his} location for local recommendations?", "Where does {name} live?",
               "What city is the user based in?", "Looking for a restaurant near the user's home — which city?"],
              ["给用户推荐本地活动前，得知道{ta}住在哪个城市？", "{name}住在哪儿？", "用户家在哪座城市？",
               "要寄东西到用户家，是哪个城市？"]),
        now=Q(["Where does {he} live now?", "What's {his} current city?", "Which city is {name} living in at the moment?"],
              ["{ta}现在住在哪个城市？", "{name}目前住哪？", "用户如今定居在哪里？"]),
        pred="home_city",
    ),
    "employer": Spec(
        say=Q(["I work at {x}.", "Employer: {x}", "User mentioned they're employed by {x}.", "Works for {x} and has been there a while."],
              ["我在{x}上班。", "工作单位：{x}", "用户说自己就职于{x}", "目前在{x}工作"]),
        change=Q(["Joined {x} in {when} after leaving {old}.", "Job change {when}: {old} → {x}",
                  "User started at {x} in {when}; {old} is behind them."],
                 ["{when}从{old}离职，加入了{x}", "换工作了：{when}起在{x}，离开了{old}", "用户{when}跳槽到{x}，不再在{old}"]),
        ask=Q(["Who does {name} work for?", "Filling in the company field on a conference form for the user — what's {his} employer?",
               "Which company is the user at?"],
              ["{name}在哪家公司工作？", "帮用户填参会表格，单位一栏写什么？", "用户的雇主是哪家？"]),
        now=Q(["Where does {he} work now?", "Which company employs {name} at present?", "What's the user's current employer?"],
              ["{ta}现在在哪上班？", "{name}目前在哪家公司？", "用户现在的东家是谁？"]),
        pred="employer",
    ),
    "timezone": Spec(
        say=Q(["Time zone: UTC{x}", "My clock runs on UTC{x}.", "User noted they're on UTC{x}, so schedule accordingly."],
              ["时区：UTC{x}", "我这边是UTC{x}", "用户说自己在UTC{x}时区"]),
        ask=Q(["Scheduling a call with {name} — what time zone is {he} in?", "What's the user's UTC offset?"],
              ["约{ta}开电话会，{ta}在哪个时区？", "用户的时区是什么？"]),
        pred="timezone",
    ),
    "hometown": Spec(
        say=Q(["Grew up in {x}.", "Hometown — {x}", "User said they were born and raised in {x}."],
              ["我老家是{x}的", "籍贯：{x}", "用户提到自己是在{x}长大的"]),
        ask=Q(["Where is {name} originally from?", "Which city did the user grow up in?",
               "Writing a short bio for {him} — where's {his} hometown?"],
              ["{name}老家在哪？", "用户是哪里人？", "写个人简介要用，{ta}的家乡是哪里？"]),
        pred="hometown",
    ),
    "full_name": Spec(
        say=Q(["My full name is {x}.", "Name on file: {x}", "User introduced themselves as {x}."],
              ["我叫{x}", "全名：{x}", "用户自我介绍说叫{x}"]),
        ask=Q(["What name should go on the user's boarding pass?", "How do I address the user formally — what's the full name?",
               "What's the user's full name?"],
              ["用户的全名是什么？", "给用户订票要填姓名，填什么？", "正式称呼用户时用什么全名？"]),
        pred="full_name",
    ),
    "job_title": Spec(
        pool=JOB_TITLES,
        say=Q(["I'm a {x}.", "Role: {x}", "User mentioned their job title is {x}.", "Day job — {x}"],
              ["我是{x}", "职位：{x}", "用户说自己的岗位是{x}", "现在做{x}"]),
        ask=Q(["What does {name} do for a living?", "Need the user's job title for the speaker badge — what is it?",
               "What's {his} role at work?"],
              ["{name}是做什么工作的？", "做胸牌要写职位，用户是什么职位？", "{ta}的岗位是什么？"]),
    ),
    "partner": Spec(
        say=Q(["My partner is {p}, who works as {occ}.", "Partner: {p} ({occ})", "User mentioned living with their partner {p}, {occ}."],
              ["我的另一半是{p}，职业是{occ}", "伴侣：{p}（{occ}）", "用户提到和伴侣{p}一起生活，对方是{occ}"]),
        ask=Q(["Is {name} married or in a relationship — with whom?", "Planning a couples' gift for the user — what's the partner's name?",
               "Who is the user's partner?"],
              ["{name}的另一半是谁？", "想给用户两口子送礼物，{ta}伴侣叫什么？", "用户有对象吗？是谁？"]),
    ),
    "kids": Spec(
        say=Q(["I have {kids}.", "Kids — {kids}", "User mentioned having {kids}."],
              ["我有{kids}", "家里有{kids}", "用户提到自己有{kids}"]),
        ask=Q(["Does the user have kids? Names and ages?", "Planning a family weekend for {name} — how many children are coming?",
               "What are {his} children called?"],
              ["用户有孩子吗？叫什么、几岁？", "给{name}安排亲子周末，有几个孩子？", "{ta}的孩子叫什么名字？"]),
    ),
    "sibling": Spec(
        say=Q(["My {rel} is {p}.", "Sibling: {rel}, {p}", "User mentioned their {rel}, {p}."],
              ["我有个{rel}叫{p}", "兄弟姐妹：{rel}{p}", "用户提到自己的{rel}名叫{p}"]),
        ask=Q(["Does the user have any brothers or sisters?", "What's the name of {name}'s sibling?",
               "Who is {his} brother or sister?"],
              ["用户有兄弟姐妹吗？", "{name}的兄弟姐妹叫什么？", "{ta}家里有哥哥姐姐或弟弟妹妹吗？"]),
    ),
    "parents": Spec(
        say=Q(["My parents are retired and live in {c}.", "Parents: in {c}, both retired", "User said their parents still live in {c}."],
              ["我爸妈退休了，住在{c}", "父母：{c}，已退休", "用户说父母还住在{c}"]),
        ask=Q(["Where do the user's parents live?", "Helping {name} plan a visit to the folks — which city are the parents in?",
               "Which city are {his} mum and dad in?"],
              ["用户的父母住在哪？", "帮{name}安排回去看父母，他们在哪个城市？", "{ta}爸妈在哪座城市生活？"]),
    ),
    "pet": Spec(
        say=Q(["I have a {sp} called {pn}.", "Pet: {pn} the {sp}", "User mentioned their {sp}, {pn}, a few times.",
               "At home: one {sp} ({pn})"],
              ["我养了一只{sp}，叫{pn}", "宠物：{sp}·{pn}", "用户多次提到家里的{sp}{pn}", "家里有只{sp}，名字叫{pn}"]),
        ask=Q(["What's the name of the user's pet?", "Looking for a pet sitter for {name} — what animal is it and what's it called?",
               "Does {he} have any animals at home?"],
              ["用户的宠物叫什么？", "给{name}找宠物寄养，是什么动物、叫什么？", "{ta}家里养了什么小动物？"]),
    ),
    "diet": Spec(
        pool=DIETS,
        say=Q(["Diet: {x}", "I keep to a {x} diet.", "User follows a {x} diet and has for years."],
              ["饮食：{x}", "我平时吃{x}饮食", "用户说自己坚持{x}饮食"]),
        ask=Q(["What eating pattern does the user stick to?", "Planning a menu for {name}: what diet is {he} on?",
               "Drafting a dinner invite — is the user on any particular diet?"],
              ["用户平时遵循哪种饮食方式？", "给{name}安排菜单，{ta}吃什么类型的饮食？", "写晚宴邀请前问一下：用户有特定的饮食方式吗？"]),
    ),
    "allergy": Spec(
        pool=ALLERGENS,
        say=Q(["Allergic to {x}.", "Allergy: {x} — keep it away from me", "User warned they have an allergy to {x}.",
               "I react badly to {x} (allergy)."],
              ["对{x}过敏", "过敏源：{x}", "用户提醒自己对{x}过敏", "我碰不得{x}，会过敏"]),
        ask=Q(["Anything the user is allergic to?", "Ordering snacks for {name}'s team day — any allergies to avoid?",
               "What allergy does {he} have?"],
              ["用户对什么过敏？", "给{name}订零食，要避开什么过敏原？", "{ta}有什么过敏吗？"]),
    ),
    "drink": Spec(
        pool=DRINKS,
        say=Q(["My usual drink is {x}.", "Favourite drink: {x}", "User always orders {x}."],
              ["我一般喝{x}", "最爱的饮品：{x}", "用户每次都点{x}"]),
        change=Q(["Switched from {old} to {x} in {when}.", "Since {when}: {x} instead of {old}"],
                 ["{when}起不喝{old}了，改喝{x}", "{when}开始饮品换成{x}，以前是{old}"]),
        ask=Q(["Getting coffee for the user — what should I order?", "What's {name}'s go-to drink?", "What does {he} usually drink?"],
              ["帮用户带饮料，点什么好？", "{name}最常喝什么？", "{ta}平时爱喝什么？"]),
        now=Q(["What does {he} drink these days?", "What's the user's current favourite drink?"],
              ["{ta}最近改喝什么了？", "用户现在最爱喝什么？"]),
        pred="favourite_drink",
    ),
    "cuisine": Spec(
        pool=CUISINES,
        say=Q(["Favourite food: {x}", "I could eat {x} every week.", "User lights up whenever {x} food comes up."],
              ["最爱吃{x}", "我每周都想吃{x}", "用户一提到{x}就来劲"]),
        ask=Q(["Picking a restaurant for {name} — which cuisine would {he} like best?", "What food does the user love most?",
               "Which kind of cooking is {his} favourite?"],
              ["给{name}选餐厅，{ta}最喜欢哪种菜系？", "用户最爱吃什么菜？", "{ta}口味上偏好哪种料理？"]),
    ),
    "food_dislike": Spec(
        pool=DISLIKES,
        say=Q(["Can't stand {x}.", "Dislikes: {x} (not an allergy, just hates it)", "User asked never to get anything with {x} in it."],
              ["受不了{x}", "不爱吃：{x}（不是过敏，就是讨厌）", "用户叮嘱点菜别放{x}"]),
        ask=Q(["Which ingredient does the user hate?", "Is there any food {name} simply dislikes?",
               "Ordering for {him} — anything {he} finds disgusting?"],
              ["用户讨厌吃什么？", "{name}有什么不爱吃的东西？", "给{ta}点菜，有什么{ta}特别反感的食材？"]),
    ),
    "hobby": Spec(
        pool=HOBBIES,
        say=Q(["Weekends are for {x}.", "Hobby: {x}", "User mentioned getting really into {x}.", "I spend my free time on {x}."],
              ["周末基本都在{x}", "爱好：{x}", "用户说最近迷上了{x}", "我空闲时间都花在{x}上"]),
        ask=Q(["What's {name}'s main hobby?", "Suggesting a weekend activity for the user — what's {his} big hobby?",
               "Which pastime is the user into?"],
              ["{name}的主要爱好是什么？", "给用户推荐周末活动，{ta}最大的爱好是什么？", "用户迷上了什么消遣？"]),
    ),
    "fitness": Spec(
        pool=FITNESS,
        say=Q(["For exercise the user {x}.", "Fitness routine: the user {x}", "Keeps fit: {x}"],
              ["运动：{x}", "我{x}", "用户的锻炼习惯是{x}"]),
        ask=Q(["How does the user stay in shape?", "What exercise does {name} do?",
               "Blocking time in {his} calendar — when does {he} work out, and doing what?"],
              ["用户平时怎么锻炼？", "{name}做什么运动？", "给{ta}排日程要避开运动时间，{ta}一般做什么运动？"]),
    ),
    "instrument": Spec(
        pool=INSTRUMENTS,
        say=Q(["Plays the {x}.", "Instrument: {x}", "I've been learning the {x} for a few years."],
              ["会演奏{x}", "乐器：{x}", "我学{x}有几年了"]),
        ask=Q(["Does the user play an instrument?", "What instrument does {name} play?",
               "Shopping for a music gift for {him} — which instrument does {he} play?"],
              ["用户会什么乐器？", "{name}玩什么乐器？", "想送{ta}乐器相关的礼物，{ta}玩的是哪种乐器？"]),
    ),
    "reading": Spec(
        pool=READING,
        say=Q(["Reads mostly {x}.", "Reading taste: {x}", "User said their bookshelves are full of {x}."],
              ["平时主要读{x}", "阅读口味：{x}", "用户说自家书架上全是{x}"]),
        ask=Q(["Buying a book for the user — which genre?", "What does {name} like to read?", "What kind of books is {he} into?"],
              ["给用户买书，挑什么类型？", "{name}喜欢读什么书？", "{ta}爱看哪类书？"]),
    ),
    "phone": Spec(
        pool=PHONES,
        say=Q(["My phone is a {x}.", "Handset: {x}", "User is on a {x}."],
              ["手机用的是{x}", "手机型号：{x}", "用户的手机是{x}"]),
        change=Q(["Upgraded from the {old} to a {x} in {when}.", "New phone ({when}): {x}; the {old} is retired."],
                 ["{when}把{old}换成了{x}", "{when}起手机改用{x}，{old}淘汰了"]),
        ask=Q(["Which phone does the user have?", "Sending setup instructions to {name} — which phone model?",
               "What handset is {he} using?"],
              ["用户用什么手机？", "给{name}发设置教程，{ta}手机是什么型号？", "{ta}拿的是哪款手机？"]),
        now=Q(["What phone is {he} on now?", "Which phone does {name} currently carry?"],
              ["{ta}现在用的什么手机？", "{name}目前的手机型号是？"]),
        pred="phone_model",
    ),
    "laptop": Spec(
        pool=LAPTOPS,
        say=Q(["Work laptop: {x}", "I do everything on a {x}.", "User's machine is a {x}."],
              ["笔记本：{x}", "我干活全靠一台{x}", "用户的电脑是{x}"]),
        ask=Q(["What laptop does the user work on?", "Troubleshooting {name}'s computer — which model is it?",
               "Which machine does {he} use?"],
              ["用户用什么笔记本电脑？", "帮{name}排查电脑问题，是哪个型号？", "{ta}的电脑是哪款？"]),
    ),
    "wearable": Spec(
        pool=WEARABLES,
        say=Q(["Wears a {x} every day.", "Wearable: {x}", "User tracks sleep with a {x}."],
              ["天天戴着{x}", "穿戴设备：{x}", "用户用{x}记录睡眠"]),
        ask=Q(["What smartwatch or tracker does the user wear?", "Syncing health data for {name} — which wearable?",
               "Does {he} wear a fitness tracker? Which one?"],
              ["用户戴什么智能手表或手环？", "帮{name}同步健康数据，用的是什么穿戴设备？", "{ta}戴运动手环吗？哪款？"]),
    ),
    "editor": Spec(
        pool=EDITORS,
        say=Q(["Codes in {x}.", "Editor: {x}", "User does all their programming in {x}."],
              ["写代码用{x}", "编辑器：{x}", "用户所有开发都在{x}里做"]),
        change=Q(["Moved from {old} to {x} in {when}.", "Editor switch ({when}): {old} out, {x} in"],
                 ["{when}从{old}转到了{x}", "{when}起编辑器换成{x}，不用{old}了", "{when} 开始 main editor 从{old}换成{x}"]),
        ask=Q(["Which code editor does the user prefer?", "Writing a setup guide for {name} — which editor should it target?",
               "What does {he} write code in?"],
              ["用户用哪个代码编辑器？", "给{name}写环境配置文档，按哪个编辑器写？", "{ta}平时在什么编辑器里写代码？"]),
        now=Q(["What editor is {he} using now?", "Which editor does the user code in at the moment?"],
              ["{ta}现在用什么编辑器？", "用户目前的主力编辑器是哪个？"]),
        pred="editor",
    ),
    "standup": Spec(
        pool=STANDUPS,
        say=Q(["Daily stand-up at {x}.", "Team stand-up is every weekday at {x}.", "User's stand-up slot: {x}"],
              ["每天{x}站会", "工作日{x}开晨会", "用户的站会时间是{x}"]),
        change=Q(["Stand-up moved from {old} to {x} in {when}.", "From {when}, stand-up is at {x} (was {old})"],
                 ["{when}起站会从{old}改到{x}", "{when}开始每天{x}站会，原来是{old}", "{when} 起 standup 改到{x}，之前{old}"]),
        ask=Q(["When is the user's daily stand-up?",
               "I want to book a morning meeting with {name} — when is {his} stand-up, so I avoid it?",
               "What time does {his} team stand-up happen?"],
              ["用户每天几点站会？", "想约{name}上午开会，{ta}几点站会要避开？", "{ta}团队每日晨会是几点？"]),
        now=Q(["What time is {his} stand-up now?", "When does the user's stand-up happen these days?"],
              ["{ta}现在几点站会？", "用户目前的站会时间是？"]),
        pred="standup_time",
    ),
    "answer_style": Spec(
        pool=ANSWER_STYLES,
        say=Q(["Prefers replies as {x}.", "Answer style: {x}", "User asked for {x} in every response."],
              ["回复偏好：{x}", "希望答复形式是{x}", "用户要求回答格式为：{x}"]),
        ask=Q(["How should I format answers for this user?", "How does {name} like responses laid out?",
               "Any formatting preference for {his} replies?"],
              ["给用户回复时用什么格式？", "{name}喜欢什么样的回答形式？", "{ta}对回复格式有什么要求？"]),
        pred="answer_style",
    ),
    "channel": Spec(
        pool=CHANNELS,
        say=Q(["Best way to reach me: {x}.", "Contact via {x}", "User prefers {x} over email."],
              ["找我最好用{x}", "联系渠道：{x}", "用户比起邮件更喜欢{x}"]),
        ask=Q(["How should I reach the user if something is urgent?", "What's the best channel to contact {name}?",
               "Which app does {he} want messages on?"],
              ["有急事怎么联系用户？", "联系{name}用什么渠道最好？", "{ta}希望通过什么方式收消息？"]),
    ),
    "quiet_hours": Spec(
        pool=QUIET_HOURS,
        say=Q(["Do not disturb {x}.", "Quiet hours: {x}", "User asked not to be pinged {x}."],
              ["{x}别打扰我", "免打扰时间：{x}", "用户说{x}不要找自己"]),
        ask=Q(["When shouldn't I send the user notifications?", "Is there a time {name} doesn't want to be contacted?",
               "When are {his} do-not-disturb hours?"],
              ["什么时间不要给用户发通知？", "{name}什么时候不希望被联系？", "{ta}的免打扰时段是？"]),
    ),
    "reply_lang": Spec(
        pool=REPLY_LANGS,
        say=Q(["Reply language: {x}", "User wants replies in {x}."],
              ["回复语言：{x}", "用户要求回复用{x}"]),
        ask=Q(["Which language should I answer the user in?", "Does {name} have a language preference for replies?"],
              ["应该用什么语言回复用户？", "{name}对回复用的语言有要求吗？"]),
    ),
    "meeting_pref": Spec(
        pool=MEETING_PREFS,
        say=Q(["Meetings: {x}", "User asked for {x} when scheduling.", "My rule for meetings: {x}."],
              ["开会要求：{x}", "用户排会时希望{x}", "我的开会原则：{x}"]),
        ask=Q(["Setting up a call with the user — any scheduling rules?", "What are {name}'s meeting preferences?",
               "How does {he} like meetings organised?"],
              ["给用户排会议，有什么规矩？", "{name}对开会有什么偏好？", "{ta}喜欢怎样安排会议？"]),
    ),
    "seat": Spec(
        pool=SEATS,
        say=Q(["On planes: {x}, please.", "Seat preference — {x}", "User always asks for {x} when flying."],
              ["坐飞机要{x}", "选座偏好：{x}", "用户每次坐飞机都要{x}"]),
        ask=Q(["Booking a flight for the user — which seat should I pick?", "Where does {name} like to sit on a plane?",
               "Any seat preference for {his} flights?"],
              ["帮用户订机票前需要知道什么座位偏好？", "{name}坐飞机喜欢坐哪？", "给{ta}值机选座选哪里？"]),
    ),
    "airline": Spec(
        pool=AIRLINES,
        say=Q(["Flies {x} whenever possible.", "Preferred airline: {x}", "User said {x} is their first choice of airline."],
              ["能坐{x}就坐{x}", "首选航司：{x}", "用户说出行首选{x}"]),
        ask=Q(["Which airline does the user prefer?", "Comparing fares for {name} — which carrier does {he} favour?"],
              ["用户偏好哪家航空公司？", "帮{name}比价机票，{ta}更喜欢哪家航司？"]),
    ),
    "hotel_pref": Spec(
        pool=HOTEL_PREFS,
        say=Q(["Hotels: {x}", "When travelling I book {x}.", "User prefers {x} when staying away."],
              ["订酒店偏好：{x}", "出差住{x}", "用户出门喜欢住{x}"]),
        ask=Q(["What should I look for when booking the user's hotel?", "Any accommodation preferences for {name}?"],
              ["给用户订酒店有什么讲究？", "{name}住宿方面有什么偏好？"]),
    ),
    "commute": Spec(
        pool=COMMUTES,
        say=Q(["Commute: {x}", "On workdays the user {x}.", "Getting to the office: the user {x}"],
              ["通勤：{x}", "我每天{x}", "用户平时{x}"]),
        ask=Q(["How does the user get to work?", "Should I factor in traffic for {name}'s commute — how does {he} travel?",
               "What's {his} commute like?"],
              ["用户怎么上班？", "{name}通勤方式是什么？", "{ta}每天怎么去公司？"]),
    ),
    "birthday": Spec(
        say=Q(["Birthday: {md}", "My birthday's on {md}.", "User mentioned their birthday is {md}."],
              ["生日：{md}", "我的生日是{md}", "用户说自己生日在{md}"]),
        ask=Q(["When is the user's birthday?", "I want a reminder to congratulate {name} — on what date?",
               "When does {he} celebrate {his} birthday?"],
              ["用户生日是哪天？", "想提前提醒给{name}过生日，是哪天？", "{ta}的生日在几月几号？"]),
    ),
    "nickname": Spec(
        say=Q(["Goes by {x} among friends.", "Call me {x} — everyone does.", "Preferred name: {x}"],
              ["朋友都叫我{x}", "昵称：{x}", "用户喜欢别人叫自己{x}"]),
        ask=Q(["What should I call the user informally?", "Does {name} have a nickname?", "How does {he} like to be addressed casually?"],
              ["平时怎么称呼用户比较亲切？", "{name}有外号吗？", "{ta}喜欢别人怎么叫{ta}？"]),
    ),
    "alma_mater": Spec(
        pool=UNIVERSITIES,
        say=Q(["Studied at {x}.", "Alma mater: {x}", "User graduated from {x}."],
              ["毕业于{x}", "母校：{x}", "我是{x}毕业的"]),
        ask=Q(["Where did the user go to university?", "Filling in an alumni field for {name} — which university?",
               "What's {his} alma mater?"],
              ["用户是哪所大学毕业的？", "帮{name}填校友信息，学校是哪所？", "{ta}的母校是？"]),
    ),
    "languages": Spec(
        pool=LANGS_SPOKEN,
        say=Q(["Speaks {x}.", "Languages: {x}", "User can hold a conversation in {x}."],
              ["会说{x}", "语言能力：{x}", "用户能用{x}交流"]),
        ask=Q(["What languages does the user speak?", "Could {name} handle a meeting abroad — which languages does {he} know?"],
              ["用户会哪些语言？", "{name}能用哪些语言沟通？"]),
    ),
    "sleep": Spec(
        pool=SLEEP,
        say=Q(["Sleep habits: {x}", "User describes themselves as {x}."],
              ["作息：{x}", "用户说自己是{x}"]),
        ask=Q(["What's the user's sleep routine like?", "What are {name}'s sleep habits?"],
              ["用户的睡眠习惯怎么样？", "{name}的作息是怎样的？"]),
    ),
    "ui_pref": Spec(
        pool=UI_PREFS,
        say=Q(["UI preference: {x}", "User likes {x}."], ["界面偏好：{x}", "用户喜欢{x}"]),
        ask=Q(["How should I set up the user's display settings?", "Any interface preferences for {name}?"],
              ["给用户配置界面时要注意什么？", "{name}对软件界面有什么偏好？"]),
    ),
}  # fmt: skip


AS_OF_ASK = {
    "home_city": Q(["Where was the user living in {year}?", "In {year}, which city was {name} based in?"],
                   ["{year}年用户住在哪个城市？", "{year}年那会儿{name}在哪座城市生活？"]),
    "employer": Q(["Which company was the user working for in {year}?", "Who employed {name} back in {year}?"],
                  ["{year}年用户在哪家公司上班？", "{year}年的时候{name}供职于哪家公司？"]),
}  # fmt: skip


SAME_NAME_ASK = {
    "home_city": Q(["Which city does {name} call home?"], ["{name}的家在哪个城市？"]),
    "employer": Q(["Remind me which company {name} is with."], ["提醒我一下，{name}在哪家单位？"]),
    "job_title": Q(["What's {name}'s job title?"], ["{name}的职位是什么？"]),
    "pet": Q(["What is {name}'s pet called?"], ["{name}养的宠物叫啥？"]),
    "hobby": Q(["What is {name} into outside work?"], ["{name}工作之外喜欢做什么？"]),
    "cuisine": Q(["What food does {name} love?"], ["{name}最爱吃什么菜？"]),
}  # fmt: skip


CODE_ASK = Q(
    ["What was {code} about?", "Pull up whatever we have on {code}.", "The user pasted {code} — which booking or issue is that?",
     "Look up reference {code} for me."],
    ["{code}是哪件事？", "帮我查一下{code}对应的记录", "用户发来一个编号{code}，这是什么？", "{code}这个号码关联的是什么？"],
)  # fmt: skip


# Topics no store mentions (the words are checked against every statement).
NOBODY = [
    ("What's the user's blood type?", "用户是什么血型？", ["blood", "血型"]),
    ("Renewing the user's gym membership — which gym is it?", "用户在哪家健身房办了卡？", ["gym", "健身房"]),
    ("What's the name of the user's landlord?", "用户的房东叫什么？", ["landlord", "房东"]),
    ("Which bank holds the user's mortgage?", "用户的房贷是在哪家银行办的？", ["mortgage", "房贷"]),
    ("Buying shoes for {him} as a gift — what's {his} shoe size?", "给{ta}买鞋当礼物，{ta}穿多大码？", ["shoe size", "鞋码", "多大码"]),
    ("What tier is the user in the airline's frequent-flyer scheme?", "用户的航空常旅客会员是什么等级？", ["frequent", "常旅客", "会员等级"]),
    ("Which football team does {name} support?", "{name}支持哪支足球队？", ["football", "足球"]),
    ("What's the user's star sign?", "用户是什么星座？", ["star sign", "zodiac", "星座"]),
    ("What is the user's tattoo of?", "用户身上的纹身是什么图案？", ["tattoo", "纹身"]),
    ("Who insures the user's car?", "用户的车在哪家保险公司投保？", ["insur", "保险"]),
    ("Which wine should I order for the user?", "给用户点酒，{ta}喜欢哪种葡萄酒？", ["wine", "葡萄酒", "红酒"]),
    ("What's {his} favourite board game?", "用户最喜欢的桌游是哪个？", ["board game", "桌游"]),
    ("Has the user ever been to Iceland?", "用户去过冰岛吗？", ["Iceland", "冰岛"]),
    ("How many hours a week does the user volunteer?", "用户每周做几个小时志愿者？", ["volunteer", "志愿"]),
]  # fmt: skip


# Background questions, per category; slots come from the memory.
BG_ASK = {
    "trip": Q(["What happened on my trip to {dest}?", "Before I book {dest} again — how did the last journey there go?",
               "Which booking reference was used for the {dest} trip?"],
              ["去{dest}那趟出行怎么样？", "再订去{dest}之前，上次路上出过什么问题？", "去{dest}那次的订座编号是多少？"]),
    "hotel": Q(["How was my stay at the {hotel} in {city}?", "Any complaints from the {hotel} {city} visit?"],
               ["{city}{hotel}那次住得怎么样？", "在{city}住{hotel}时出过什么状况？"]),
    "meeting": Q(["What did we decide about the {project} {aspect}?",
                  "Prepping for the next {project} sync — what came out of the last talk on the {aspect}?",
                  "Who did I discuss the {project} {aspect} with?"],
                 ["{project}的{aspect}最后怎么定的？", "准备下次{project}的会，上次关于{aspect}的结论是什么？",
                  "{project}{aspect}那件事是跟谁谈的？"]),
    "incident": Q(["What broke in {svc} last time, and how was it fixed?",
                   "The {svc} alert is firing again — what did we do the previous time?", "Any past outage notes for {svc}?"],
                  ["{svc}上次出了什么故障，怎么修的？", "{svc}又告警了，之前是怎么处理的？", "有没有{svc}以前的事故记录？"]),
    "order": Q(["What happened with the {item} I ordered online?", "Did the {item} order ever get sorted out?",
                "Which site did I order the {item} from?"],
               ["我网上买的{item}后来怎样了？", "{item}那个订单处理好了吗？", "{item}是在哪个平台下单的？"]),
    "ticket": Q(["How did the {vendor} support case end?", "Chasing {vendor} again — what did they say last time?"],
                ["找{vendor}客服那次最后怎么解决的？", "又要联系{vendor}了，上次工单结果是什么？"]),
    "purchase": Q(["How much did I pay for the {item}?", "Where did the {item} come from?"],
                  ["{item}花了多少钱？", "{item}是在哪儿买的？"]),
    "appointment": Q(["When is my {atype} appointment?", "What's the booking reference for the {atype}?"],
                     ["{atype}约在哪天？", "{atype}的预约号是多少？"]),
    "note": Q(["What did I note about the {topic}?", "Anything saved about the {topic}?",
               "Before I call someone about the {topic} — what do my notes say?"],
              ["关于{topic}我记过什么？", "{topic}那条备忘写了啥？", "打电话问{topic}的事之前，我笔记里怎么写的？"]),
    "invoice": Q(["How much did {vendor} bill me?", "What was the invoice from {vendor} about?"],
                 ["{vendor}那张发票多少钱？", "{vendor}开的账单是怎么回事？"]),
    "event": Q(["How was the {event}?", "Who came with me to the {event}?"],
               ["{event}感觉怎么样？", "{event}是和谁一起去的？"]),
    "person:city": Q(["Where does my {rel} {p} live?", "Sending a postcard to {p} — which city?"],
                     ["我{rel}{p}住在哪个城市？", "给{p}寄明信片，寄到哪个城市？"]),
    "person:job": Q(["Where does {p} work?", "What does my {rel} {p} do for a living?"],
                    ["{p}在哪家公司上班？", "我{rel}{p}是做什么工作的？"]),
    "person:pet": Q(["What is {p}'s pet called?", "What animal does my {rel} {p} keep?"],
                    ["{p}家的宠物叫什么？", "我{rel}{p}养了什么宠物？"]),
    "person:allergy": Q(["What is {p} allergic to?", "Cooking for my {rel} {p} — anything to avoid?"],
                        ["{p}对什么过敏？", "给我{rel}{p}做饭要避开什么？"]),
    "person:drink": Q(["What does {p} like to drink?", "Getting drinks — what does my {rel} {p} have?"],
                      ["{p}爱喝什么？", "给我{rel}{p}带饮料，带什么？"]),
    "person:phone": Q(["Which phone did {p} get?", "What handset does my {rel} {p} use?"],
                      ["{p}换了什么手机？", "我{rel}{p}用的什么手机？"]),
    "person:birthday": Q(["When is {p}'s birthday?", "What date should I remember for my {rel} {p}?"],
                         ["{p}生日是哪天？", "我{rel}{p}哪天过生日？"]),
    "person:diet": Q(["What diet is {p} on?", "Is my {rel} {p} on any special diet?"],
                     ["{p}现在吃什么饮食？", "我{rel}{p}有什么饮食习惯？"]),
    "person:hobby": Q(["What hobby did {p} pick up?", "What does my {rel} {p} do at weekends?"],
                      ["{p}最近在玩什么爱好？", "我{rel}{p}周末都干嘛？"]),
}  # fmt: skip


PERSON_SAY = {
    "city": Q(["My {rel} {p} lives in {city} now.", "User mentioned their {rel} {p} has settled in {city}.",
               "{p} ({rel}) — based in {city}"],
              ["我{rel}{p}现在住在{city}", "用户提到{rel}{p}定居在{city}了", "{p}（{rel}）：住{city}"]),
    "job": Q(["My {rel} {p} works at {company} as {a_job}.", "{p}, my {rel}, is {a_job} at {company}.",
              "User's {rel} {p}: {job} at {company}"],
             ["我{rel}{p}在{company}当{job}", "{p}是我{rel}，在{company}做{job}", "用户的{rel}{p}：{company}的{job}"]),
    "pet": Q(["My {rel} {p} has a {sp} called {pn}.", "{p}'s {sp} is named {pn} (that's my {rel})",
              "User mentioned their {rel} {p} owns a {sp}, {pn}."],
             ["我{rel}{p}养了只{sp}叫{pn}", "{p}（我{rel}）家的{sp}名叫{pn}", "用户提到{rel}{p}有一只{sp}，叫{pn}"]),
    "allergy": Q(["My {rel} {p} is allergic to {al}.", "Heads-up: {p} ({rel}) reacts badly to {al}."],
                 ["我{rel}{p}对{al}过敏", "提醒：{p}（{rel}）碰不得{al}"]),
    "drink": Q(["My {rel} {p} only ever drinks {dr}.", "{p} (my {rel}) always orders {dr}."],
               ["我{rel}{p}只喝{dr}", "{p}（我{rel}）每次都点{dr}"]),
    "phone": Q(["My {rel} {p} just switched to a {ph}.", "{p} ({rel}) is using a {ph} now."],
               ["我{rel}{p}刚换了{ph}", "{p}（{rel}）现在用{ph}"]),
    "birthday": Q(["My {rel} {p}'s birthday is {md}.", "Remember: {p} ({rel}) celebrates on {md}."],
                  ["我{rel}{p}的生日是{md}", "记住：{p}（{rel}）{md}过生日"]),
    "diet": Q(["My {rel} {p} went {dt} last year.", "{p} (my {rel}) eats {dt} now."],
              ["我{rel}{p}去年开始吃{dt}饮食", "{p}（我{rel}）现在是{dt}饮食"]),
    "hobby": Q(["My {rel} {p} has taken up {hb}.", "{p} ({rel}) spends weekends on {hb}."],
               ["我{rel}{p}最近迷上了{hb}", "{p}（{rel}）周末都在{hb}"]),
}  # fmt: skip


PERSON_FACETS = list(PERSON_SAY)


ALWAYS = ["home_city", "employer", "full_name", "job_title"]


CHANGEABLE = ["drink", "phone", "editor", "standup"]


STALE_KEYS = ["home_city", "employer"] + CHANGEABLE


# Keys an abstain question may ask about when a subject lacks them: no other memory of a
# store answers them (other people's pets, drinks or birthdays are distractors, not answers).
ABSTAIN_OK = [
    "partner", "kids", "sibling", "parents", "pet", "allergy", "drink", "instrument", "wearable", "editor",
    "standup", "answer_style", "quiet_hours", "seat", "airline", "hotel_pref", "birthday", "nickname",
    "alma_mater", "food_dislike", "ui_pref", "sleep", "reading", "channel", "meeting_pref", "fitness",
]  # fmt: skip


BG_PLAN = {"trip": 14, "hotel": 10, "meeting": 26, "incident": 14, "order": 16, "ticket": 10,
           "purchase": 12, "appointment": 8, "note": 18, "person": 24, "invoice": 8, "event": 10}  # fmt: skip
