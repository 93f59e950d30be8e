"""Facts about someone else, told by where the relation stands (``relations.about_someone_else``):
in the statement's subject — with a possessive, a name, a parenthesis or "of the user" —
it is another person's fact; as the object of the user's own clause it is the user's.
Phrasings of our own, in both languages, written before the rule."""

from __future__ import annotations

import pytest

from memory import relations


@pytest.mark.parametrize(
    "statement",
    [
        "Coworker Ines Duarte commutes by ferry",
        "My landlord's cat sleeps on the stairs",
        "Tobias Lind, a neighbour of the user, restores old radios",
        "Hanna Koivu (mentor) retired last year",
        "Her roommate Dalia studies dentistry",
        "The user's teammate Oskar broke his wrist",
        "His old classmate now teaches chemistry in Leeds",
        "A colleague of the user, Rafael Mendes, plays the banjo",
        "Our neighbours adopted a greyhound",
        "房东李建国下个月要卖房",
        "许嘉怡（室友）在学法语",
        "我的老同学在深圳开了一家面馆",
    ],
)
def test_a_relation_in_the_subject_is_someone_elses_fact(statement):
    assert relations.about_someone_else(statement)


@pytest.mark.parametrize(
    "statement",
    [
        "User carpools with a coworker on Mondays",
        "Visited a mentor in Lyon; the mentor liked the gift",
        "Plays five-a-side football with neighbours",
        "Asked a client for feedback on the draft",
        "User tutors a classmate in statistics",
        "I lent my colleague a ladder",
        "Prefers to meet clients in the morning",
        "Took a friend's advice and sold the car",
        "The user and a colleague share a desk",
        "用户和房东关系不错",
        "每周五跟室友做饭",
        "我帮同事搬了家",
    ],
)
def test_a_relation_elsewhere_leaves_the_fact_the_users(statement):
    assert not relations.about_someone_else(statement)
