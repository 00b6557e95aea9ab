"""Every test of the conformance kit that takes ``ruleset_id`` runs once per
registered ruleset."""

from __future__ import annotations

import pytest
from conformance_kit import RULESETS


@pytest.fixture(params=RULESETS)
def ruleset_id(request: pytest.FixtureRequest) -> str:
    rid: str = request.param
    return rid
