"""Round 4 of issue 32: special categories found through closed, standard classes with the
user as the subject (memory/detectors/subject_forms.py) — WHO INN stems and their Chinese
approved-name transliterations, ISO 9999 assistive products, the officially recognised
peoples of the PRC and Taiwan, the vocabulary of a criminal sentence. Every class has
positives written here (not copied from a probe) and ordinary text it must let through:
other people, the topic, the news, a job in the field."""

from __future__ import annotations

import pytest

from memory.detectors.special_categories import find_special_categories
from tests.security.ordinary_zh import ORDINARY_ZH

POSITIVE = [
    # INN stems, English (drug names not listed anywhere)
    ("I've been on brivaracetam since the spring.", "health"),
    ("I take rivaroxaban every evening.", "health"),
    ("My edoxaban prescription needs renewing.", "health"),
    ("I inject adalimumab... no, I inject secukinumab every month.", "health"),
    ("The empagliflozin makes me thirsty all day.", "health"),
    ("I'm on tirzepatide... I'm on liraglutide now.", "health"),
    # INN stems, Chinese approved names, with time and dose words in between
    ("我每天早上吃一片瑞舒伐他汀。", "health"),
    ("我每晚睡前吃半片艾司唑仑。", "health"),
    ("我一直在吃达格列净。", "health"),
    ("我每两周打一针度普利尤单抗。", "health"),
    ("我饭后吃一粒奥美拉唑。", "health"),
    ("我每晚睡前吃半片思诺思。", "health"),
    # assistive products
    ("I use a wheelchair at work.", "health"),
    ("I get about on a mobility scooter these days.", "health"),
    ("I walk with a white cane.", "health"),
    ("I wear hearing aids in both ears.", "health"),
    ("我出门要拄拐杖。", "health"),
    ("我平时坐轮椅。", "health"),
    ("我戴着助听器。", "health"),
    ("車椅子を使って通勤しています。", "health"),
    ("저는 보청기를 끼고 있어요.", "health"),
    # procedures with their site; future and other languages
    ("I'm recovering from a shoulder arthroscopy.", "health"),
    ("I had a left knee meniscectomy in June.", "health"),
    ("我下个月要去做胆囊手术。", "health"),
    ("私は来月、膝の手術を受けます。", "health"),
    ("저는 작년에 무릎 수술을 받았어요.", "health"),
    ("我最近失眠很严重。", "health"),
    # ethnicity
    ("我是满族。", "ethnicity"),
    ("我是哈尼族的。", "ethnicity"),
    ("我家是回族。", "ethnicity"),
    ("我是卑南族人。", "ethnicity"),
    ("我是賽夏族。", "ethnicity"),
    ("我的民族是朝鲜族。", "ethnicity"),
    ("I'm Welsh on my father's side.", "ethnicity"),
    ("I'm of Kurdish descent.", "ethnicity"),
    ("My ethnic background is mixed.", "ethnicity"),
    # criminal record
    ("I did two years in prison for fraud.", "criminal_record"),
    ("I'm out on parole until next summer.", "criminal_record"),
    ("I have a spent conviction for theft.", "criminal_record"),
    ("I was convicted of assault in 2011.", "criminal_record"),
    ("My probation officer wants to see me Monday.", "criminal_record"),
    ("I'm on an electronic tag until June.", "criminal_record"),
    ("我坐过牢。", "criminal_record"),
    ("我有前科。", "criminal_record"),
    ("我去年才从看守所出来。", "criminal_record"),
    ("我因为打架被判过刑。", "criminal_record"),
    ("我被判了三年缓刑。", "criminal_record"),
    ("私は前科があります。", "criminal_record"),
    # language parity: Japanese and Korean forms of what English and Chinese know
    ("나 게이야.", "sexual_orientation"),
    ("저는 양성애자예요.", "sexual_orientation"),
    ("私はレズビアンです。", "sexual_orientation"),
    ("私はクリスチャンなので日曜は教会に行きます。", "religion"),
    ("私は浄土真宗の信者です。", "religion"),
    ("저는 천주교 신자예요.", "religion"),
    ("저는 노조 대의원이에요.", "trade_union"),
    ("I only eat halal.", "religion"),
    ("I keep strictly kosher.", "religion"),
    ("I fast from dawn to sunset during the holy month.", "religion"),
    ("The app verifies me with my face.", "biometric"),
    ("银行用我的声音来验证。", "biometric"),
    # a test that came back, a numbered session, a medicine collected or on a schedule
    ("My MRI came back clear.", "health"),
    ("My second session of light therapy is on Friday.", "health"),
    ("I pick up my lisinopril from the pharmacy on Mondays.", "health"),
    ("I take my Lyrica at 9pm with food.", "health"),
    ("My fasting glucose was 6.8.", "health"),
    ("每个主日我都去教会帮忙。", "religion"),
    # a dosage form only medicines take, or a tablet beside a word of prescribing
    ("我每天吃一片阿司匹林肠溶片。", "health"),
    ("我在吃某某胶囊，医嘱说要吃三个月。", "health"),
    ("我在吃左甲状腺素钠片，一日一次。", "health"),
]

NEGATIVE = [
    # other people
    "我妈在吃瑞舒伐他汀。",
    "我爸每天吃一片氨氯地平。",
    "My dad takes rivaroxaban.",
    "我朋友是满族的。",
    "我同事是回族，不吃猪肉。",
    "我奶奶坐轮椅。",
    "I pushed Gran's wheelchair round the park.",
    "My brother did two years in prison.",
    "祖母は車椅子を使っています。",
    "할머니가 휠체어를 타고 계세요.",
    # the topic, the news
    "他汀类药物的副作用是什么？",
    "沙坦类和普利类降压药有什么区别？",
    "What does rivaroxaban interact with?",
    "The documentary was about a prison in Norway.",
    "新闻说那个演员有前科。",
    "满族的传统服饰很好看。",
    "我是水族馆的会员。",
    "我是上班族。",
    "I spent the afternoon in a prison museum.",
    "I have a conviction that we'll win.",
    "My conviction that she was right only grew.",
    "I have a wheelchair ramp fitted for my mum's visits.",
    "친구가 게이야.",
    "나는 친구가 게이야.",
    "우리 엄마는 천주교 신자예요.",
    "私はこのブランドの信者です。",
    "저는 아빠가 노조 위원장이에요.",
    "I only eat vegetables.",
    "I fast from time to time.",
    "The app verifies my address with my bank.",
    "我用我的手机验证。",
    "My driving test came back fine.",
    "My mum's MRI came back clear.",
    "I pick up my mum from the pharmacy.",
    "I take my Labrador twice a day to the park.",
    "I take my Rex for a walk every morning.",
    "礼拜天我都去爬山。",
    # a job in the field
    "我是药剂师，每天配几百张处方。",
    "我每天都要做五台手术。",
    "我在手术室上班。",
    "I'm a probation officer.",
    "I'm a nurse; I teach patients to use a mobility scooter.",
    # ordinary
    "我每天吃一片面包当早餐。",
    # food in a tablet's or a capsule's shape, with no word of prescribing or dosing
    "我最近在吃燕麦片当早餐。",
    "我每天都吃燕麦片。",
    "我吃了一包薯片。",
    "我在吃鱼油和钙片。",
    "我在吃胶囊咖啡。",
    "我吃了小龙虾。",
    "I need cholesterol-free recipes for the party.",
    "I'm on the train.",
]


@pytest.mark.parametrize(("text", "category"), POSITIVE)
def test_the_users_own_special_category_is_found(text, category):
    assert category in find_special_categories(text), text


@pytest.mark.parametrize("text", NEGATIVE)
def test_other_people_the_topic_and_a_job_pass(text):
    found = set(find_special_categories(text))
    assert not found, (text, found)


def test_ordinary_chinese_turns_pass():
    held = [t for t in ORDINARY_ZH if find_special_categories(t)]
    assert held == []
