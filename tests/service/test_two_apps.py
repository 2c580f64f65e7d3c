"""Two apps in one process keep their own settings: nothing in rules/ holds an app's state.

Each app builds its own descriptors where a setting reaches the engine (the dice roller's
shorthands, ``System.configured``), its own narration (``texts_of`` its systems) and its own
endpoints (``app.state.endpoints``); building a second app changes nothing of the first.
"""

from __future__ import annotations

from rules.registry import SYSTEMS
from service.endpoints import endpoints
from tests.conftest import Api, assert_problem


def test_two_apps_keep_their_own_shorthands() -> None:
    extended = Api(dice_shorthands={"crit": "4d6", "adv": "3d20kh1"})
    plain = Api()  # built after: the first keeps its table
    again = Api(dice_shorthands={"crit": "2d8"})
    roll = {"notation": "crit + adv", "seed": 1}
    assert extended.post("/dice/roll", json=roll).json()["formula"] == "4d6 + 3d20kh1"
    assert_problem(plain.post("/dice/roll", json={"notation": "crit"}), 422)
    assert plain.post("/dice/roll", json={"notation": "adv", "seed": 1}).json()["formula"] == (
        "2d20kh1"
    )
    assert again.post("/dice/roll", json=roll).json()["formula"] == "2d8 + 2d20kh1"
    # the odds read the same table as the roll, and the first app's is still its own
    assert extended.post("/dice/odds", json={"notation": "crit"}).json()["formula"] == "4d6"
    assert_problem(plain.post("/dice/odds", json={"notation": "crit"}), 422)
    assert extended.post("/dice/roll", json=roll).json()["formula"] == "4d6 + 3d20kh1"


def test_an_app_without_extra_shorthands_serves_the_registry_s_descriptors() -> None:
    plain, extended = Api(), Api(dice_shorthands={"crit": "4d6"})
    assert plain.app.state.systems == SYSTEMS
    changed = [
        (mine, theirs)
        for mine, theirs in zip(extended.app.state.systems, SYSTEMS, strict=True)
        if mine is not theirs
    ]
    # only the system that reads dice notation is an entry of its own, with the same paths
    assert [mine.id for mine, _ in changed] == ["notation"]
    assert endpoints(extended.app).keys() == endpoints(plain.app).keys()


def test_two_apps_keep_their_own_limits() -> None:
    tight, loose = Api(max_dice=10), Api()
    body = {"pool": 50, "seed": "s"}
    assert_problem(tight.post("/dos/roll", json=body), 422, "limit-exceeded")
    assert loose.post("/dos/roll", json=body).status_code == 200
    assert_problem(tight.post("/dos/roll", json=body), 422, "limit-exceeded")
