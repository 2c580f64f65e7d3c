"""The full Monte Carlo oracle of issue 18, one case per system: seeded resolutions through the
resolving endpoint's own engine (``checks.test``, ``battle``, ``resolve_combat``, 5e ``attack``),
every exact answer within 4 standard errors. ``make unit`` runs 10^5 resolutions per case (about 2-6
s of CPU each; the exact enumeration the odds tests pin already checks every value), ``make
fuzz-long`` the full 10^6 (``DRAGONROLL_ODDS_FULL_RUNS``, ``tests.odds.oracles.FULL_RUNS``). The
other Monte Carlo checks run ``RUNS`` resolutions (1,500 by default: tests/odds/test_dos_odds.py).

The cases are cheap resolutions that still exercise each answer: a DoS pool of 8 dice (ones
cancelling, tens in chains, luck and bad luck all common), a village's pair against a dragon with
its dragon die, a riders duel with a counter item, a 5e attack with its critical and drops.
"""

from __future__ import annotations

from typing import Any

from rules.dnd5e import attack as dnd5e
from rules.dnd5e import odds as dnd5e_odds
from rules.dnd5e.models import AttackRequest
from rules.dnd5e.system import LONGSWORD
from rules.dos import checks
from rules.dos import odds as dos_odds
from rules.dos.models import TestRequest
from rules.dragon import odds as dragon_odds
from rules.dragon.battle import battle
from rules.dragon.models import BattleRequest
from rules.dragon.system import VILLAGE
from rules.riders import odds as riders_odds
from rules.riders.combat import resolve_combat
from rules.riders.models import CombatRequest
from rules.riders.system import DUEL
from tests.odds.oracles import FULL_RUNS, exact, marginal, tally, within


def _agrees(p: dict[str, Any], hits: int) -> bool:
    return within(exact(p), hits, FULL_RUNS)


def test_dos_test_agrees_with_the_full_monte_carlo() -> None:
    body = {"stat": 10, "skill": 8, "dc": 45}
    answer = dos_odds.test_odds(dos_odds.TestOddsRequest(**body))
    req = TestRequest(**body)

    def resolve(dice: Any) -> tuple[str, int]:
        result = checks.test(req, dice)
        return result["outcome"], result["roll"]["result"]

    found = tally(resolve, FULL_RUNS, "mc-dos")
    for name, p in answer["outcomes"].items():
        assert _agrees(p, marginal(found, lambda k, n=name: k[0] == n)), name
    for entry in answer["pool"]["result"]:
        assert _agrees(entry["p"], marginal(found, lambda k, v=entry["value"]: k[1] == v))


def test_dragon_pair_and_dragon_die_agree_with_the_full_monte_carlo() -> None:
    answer = dragon_odds.battle_odds(dragon_odds.BattleOddsRequest(**VILLAGE))
    req = BattleRequest(**VILLAGE)

    def resolve(dice: Any) -> tuple[str | None, int, bool]:
        result = battle(req, dice)
        (pair,) = result["pairs"]
        winner = "interrupted" if pair["interrupted"] else pair["winner"]
        return winner, pair["successes"], result["sweep_detail"]["triggered"]

    found = tally(resolve, FULL_RUNS, "mc-dragon")
    (pair,) = answer["pairs"]
    for key, name in (("a_wins", pair["a"]), ("b_wins", pair["b"]), ("interrupted", "interrupted")):
        assert _agrees(pair[key], marginal(found, lambda k, n=name: k[0] == n)), key
    for side in ("a", "b"):
        for entry in pair[f"{side}_successes"]:  # type: ignore[literal-required]
            hits = marginal(found, lambda k, s=pair[side], v=entry["value"]: k[:2] == (s, v))
            assert _agrees(entry["p"], hits), (side, entry["value"])
    assert answer["sweep"] is not None
    assert _agrees(answer["sweep"]["triggered"], marginal(found, lambda k: k[2]))


def test_riders_duel_agrees_with_the_full_monte_carlo() -> None:
    answer = riders_odds.combat_odds(riders_odds.CombatOddsRequest(**DUEL))
    req = CombatRequest(**{**DUEL, "auto": True})

    def resolve(dice: Any) -> tuple[str, str]:
        result = resolve_combat(req, dice)
        return result["presumptive_loser"], result["winner"]

    found = tally(resolve, FULL_RUNS, "mc-riders")
    behind = marginal(found, lambda k: k[0] == "defender")
    assert _agrees(answer["initiator_wins"], behind)
    (wand,) = answer["counters"]
    assert wand["side"] == "defender"
    assert _agrees(wand["turns"], marginal(found, lambda k: k == ("defender", "defender")))


def test_dnd5e_attack_agrees_with_the_full_monte_carlo() -> None:
    answer = dnd5e_odds.attack_odds(dnd5e_odds.AttackOddsRequest(**LONGSWORD))
    req = AttackRequest(**LONGSWORD)

    def resolve(dice: Any) -> tuple[bool, bool, int, bool]:
        result = dnd5e.attack(req, dice)
        return result["hit"], result["critical"], result["damage_total"], result["target"]["dead"]

    found = tally(resolve, FULL_RUNS, "mc-dnd5e")
    assert _agrees(answer["hit"], marginal(found, lambda k: k[0]))
    assert _agrees(answer["critical"], marginal(found, lambda k: k[1]))
    assert _agrees(answer["dies"], marginal(found, lambda k: k[3]))
    for entry in answer["damage"]["result"]:
        assert _agrees(entry["p"], marginal(found, lambda k, v=entry["value"]: k[2] == v))
