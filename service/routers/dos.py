"""``/dos``: Dragons of Shadows (rules/dos.md)."""

from fastapi import APIRouter

from rules.dos import checks
from rules.dos.models import (
    ComplexRequest,
    ComplexResult,
    OpposedRequest,
    OpposedResult,
    PoolRequest,
    RollResult,
    TestRequest,
    TestResult,
)
from service.routing import add_resolver

router = APIRouter(prefix="/dos", tags=["Dragons of Shadows"])

_POOL = (
    "A pool is `skill` d10 (DOS-1): each 1 cancels the highest other die (DOS-2), each surviving "
    "10 adds an extra die, chaining on 10s (DOS-3); more 10s than other dice is luck (automatic "
    "success), more 1s is bad luck (automatic failure) (DOS-5, DOS-6). Dice are drawn base dice "
    "first, then each surviving 10's chain in order (DOS-7)."
)

add_resolver(
    router,
    "/roll",
    resolver=checks.roll,
    slots=checks.roll_slots,
    request_model=PoolRequest,
    response_model=RollResult,
    summary="Roll a d10 pool",
    description=_POOL,
    system="dos",
    slot_doc="`roll` (d10): the pool's base dice, then its extra dice.",
)
add_resolver(
    router,
    "/test",
    resolver=checks.test,
    slots=checks.test_slots,
    request_model=TestRequest,
    response_model=TestResult,
    summary="Simple test against a DC",
    description=(
        "Total = floor((stat + dice result) x (100 + modifier) / 100) (DOS-8); success when the "
        "total exceeds the DC (ties fail unless `options.ties` is `succeed`); luck always succeeds "
        "and bad luck always fails (DOS-11). " + _POOL
    ),
    system="dos",
    slot_doc="`check` (d10): the pool.",
)
add_resolver(
    router,
    "/opposed",
    resolver=checks.opposed,
    slots=checks.opposed_slots,
    request_model=OpposedRequest,
    response_model=OpposedResult,
    summary="Opposed test between two sides",
    description=(
        "Both sides roll; luck beats no luck, bad luck loses to no bad luck, otherwise the higher "
        "total wins; equal totals are a tie with no winner (DOS-12). " + _POOL
    ),
    system="dos",
    slot_doc="`a` (d10): side a's pool; `b` (d10): side b's pool.",
)
add_resolver(
    router,
    "/complex",
    resolver=checks.complex_test,
    slots=checks.complex_slots,
    request_model=ComplexRequest,
    response_model=ComplexResult,
    summary="Complex test: several attempts, several successes needed",
    description=(
        "Attempts are simple tests rolled one after another until `successes_needed` is reached or "
        "`attempts` run out; a failure with at least one success is `partial` (DOS-13). " + _POOL
    ),
    system="dos",
    slot_doc="`attempt.<n>` (d10), n = 1 .. attempts: the pool of attempt n.",
)
