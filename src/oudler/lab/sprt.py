"""A sequential probability ratio test on the arena's paired duplicate differences.

Chess engines' test farms accept or reject a change with an SPRT: games are played until the
evidence for "the change is worth at least B" or for "at most A" is strong enough, with error
rates alpha and beta fixed in advance, and no number of games fixed beforehand. A Tarot deal's
score is not a win, a draw or a loss, so the Elo model (a trinomial on game results) does not
apply; the arena's own figure does: the duplicate difference of a deal, the tested bot's mean
score over its four seats minus the baseline's (points per deal per seat, the unit of every
arena report). The differences of successive deals are independent, and their mean is close to
normal after a few deals, so the test is the generalized SPRT of a normal mean with the variance
estimated from the data (as Fishtest's "normalized" GSPRT):

    H0: mean = A        H1: mean = B        (A < B)
    LLR = n (B - A) (m - (A + B) / 2) / s²

with n deals, m their mean and s² their sample variance. H1 is accepted once LLR >= log((1 - beta)
/ alpha), H0 once LLR <= log(beta / (1 - alpha)) (Wald's bounds). A mean above B as well as one
at B leads to H1; below A, to H0; between the two, the test takes longer, most near (A + B) / 2.

The deals are read in the order of their index, and only the ones with no gap before them, so
that the decision (and the deal it falls on) is the same whatever the number of processes and
when a run resumes from its log.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

MIN_DEALS = 16
"""No decision before this many deals: the variance is estimated from the data, and a handful of
deals can make it look far smaller than it is."""

MIN_DIFFERING = 30
"""Nor before this many deals on which the two bots scored differently. A change that alters few
decisions (a deeper exact endgame) leaves most deals at a difference of 0, and the spread of the
few it alters, heavy-tailed (a contract made or not is 100 points and more), is what the variance
must show: the exact endgame from 7 tricks accepted H0 after 16 deals, 5 of them different, on a
spread of 1.6 points, which 95 deals showed to be 15 (docs/arena.md, "Screens run so far")."""


class SprtError(ValueError):
    """Settings of a test that cannot work (A not below B, an error rate outside (0, 1))."""


# Student's t, here with the test that reads it; the arena's intervals use it too.
_T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23,
        15: 2.13, 20: 2.09, 30: 2.04, 60: 2.00, 120: 1.98}  # fmt: skip


def t95(df: int) -> float:
    """Two-sided 95 % quantile of Student's t (the nearest tabulated degrees of freedom below,
    which errs on the wide side)."""
    if df <= 0:
        return math.inf
    if df > 120:
        return 1.96
    return _T95[max(k for k in _T95 if k <= df)]


@dataclass(frozen=True)
class SprtConfig:
    """H0: the mean difference is ``low`` (A); H1: it is ``high`` (B); points per deal per seat."""

    low: float
    high: float
    alpha: float = 0.05
    beta: float = 0.05
    min_deals: int = MIN_DEALS
    min_differing: int = MIN_DIFFERING

    def __post_init__(self) -> None:
        if not self.low < self.high:
            raise SprtError(f"the SPRT needs A < B, not {self.low:g},{self.high:g}")
        for name, p in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < p < 0.5:
                raise SprtError(f"{name} is an error rate between 0 and 0.5, not {p:g}")
        if self.min_deals < 2:
            raise SprtError("the SPRT needs at least 2 deals to estimate a variance")

    @property
    def lower(self) -> float:
        """At or below it, H0 is accepted."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """At or above it, H1 is accepted."""
        return math.log((1.0 - self.beta) / self.alpha)

    def to_dict(self) -> dict[str, Any]:
        return {
            "h0": self.low,
            "h1": self.high,
            "alpha": self.alpha,
            "beta": self.beta,
            "min_deals": self.min_deals,
            "min_differing": self.min_differing,
        }


def parse_bounds(text: str) -> tuple[float, float]:
    """``"A,B"`` as two numbers (points per deal per seat)."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        return float(parts[0]), float(parts[1])
    except ValueError:
        raise SprtError(
            f"--sprt takes two numbers A,B in points per deal per seat (as 0,5), not {text!r}"
        ) from None


class Sprt:
    """The running test: feed it the deals' differences in order (``add``)."""

    def __init__(self, config: SprtConfig) -> None:
        self.config = config
        self.n = 0
        self.differing = 0
        """Deals whose difference is not 0."""
        self._sum = 0.0
        self._sumsq = 0.0
        self.decision: str | None = None
        """``"H1"`` or ``"H0"`` once accepted; then further deals change nothing."""
        self.decided_at: int | None = None

    @property
    def mean(self) -> float:
        return self._sum / self.n if self.n else 0.0

    @property
    def variance(self) -> float:
        if self.n < 2:
            return 0.0
        return max(0.0, (self._sumsq - self._sum * self._sum / self.n) / (self.n - 1))

    @property
    def llr(self) -> float:
        """The log-likelihood ratio of H1 against H0 so far (0 before two deals)."""
        if self.n < 2:
            return 0.0
        a, b = self.config.low, self.config.high
        lean = self.n * (b - a) * (self.mean - (a + b) / 2)
        var = self.variance
        if var == 0.0:  # every deal alike: certain which side of the midpoint it lies
            return 0.0 if lean == 0.0 else math.copysign(math.inf, lean)
        return lean / var

    def add(self, x: float) -> str | None:
        """One more deal's difference; the decision, once there is one."""
        if self.decision is not None:
            return self.decision
        self.n += 1
        self.differing += x != 0
        self._sum += x
        self._sumsq += x * x
        if self.n >= self.config.min_deals and self.differing >= self.config.min_differing:
            llr = self.llr
            if llr >= self.config.upper:
                self.decision = "H1"
            elif llr <= self.config.lower:
                self.decision = "H0"
            if self.decision is not None:
                self.decided_at = self.n
        return self.decision

    def interval(self) -> tuple[float, float] | None:
        """95 % interval of the mean (normal; Student's t for few deals)."""
        if self.n < 2:
            return None
        half = t95(self.n - 1) * math.sqrt(self.variance / self.n)
        return self.mean - half, self.mean + half

    def to_dict(self) -> dict[str, Any]:
        ci = self.interval()
        llr = self.llr
        return {
            **self.config.to_dict(),
            "deals": self.n,
            "differing": self.differing,
            "mean": round(self.mean, 2),
            "ci95": [round(ci[0], 2), round(ci[1], 2)] if ci else None,
            "sd": round(math.sqrt(self.variance), 2),
            "llr": round(llr, 3) if math.isfinite(llr) else llr,
            "lower": round(self.config.lower, 3),
            "upper": round(self.config.upper, 3),
            "decision": self.decision,
        }

    def status(self) -> str:
        """One line for a running test: the estimate, its interval, the LLR and its bounds."""
        d = self.to_dict()
        ci = d["ci95"]
        ci_text = f"[{ci[0]:+.1f}, {ci[1]:+.1f}]" if ci else "[n/a]"
        verdict = {"H1": "accepts H1", "H0": "accepts H0", None: "going on"}[self.decision]
        return (
            f"deal {self.n}: {d['mean']:+.2f} {ci_text} sd {d['sd']:.1f}; "
            f"LLR {self.llr:+.2f} ({d['lower']:+.2f}, {d['upper']:+.2f}) {verdict}"
        )


def describe(d: dict[str, Any]) -> str:
    """The report's line for a test (``Sprt.to_dict``)."""
    what = {
        "H1": f"accepts H1 (a gain of {d['h1']:+g} rather than {d['h0']:+g})",
        "H0": f"accepts H0 (a gain of {d['h0']:+g} rather than {d['h1']:+g})",
        None: "no decision yet (out of deals: run again with more --deals and the same --log)",
    }[d["decision"]]
    ci = d["ci95"]
    ci_text = f"[{ci[0]:+.1f}, {ci[1]:+.1f}]" if ci else "[n/a]"
    return (
        f"SPRT H0 {d['h0']:+g} / H1 {d['h1']:+g} (alpha {d['alpha']:g}, beta {d['beta']:g}): "
        f"{what} after {d['deals']} deals; mean {d['mean']:+.2f} {ci_text}, "
        f"LLR {d['llr']:+.2f} (bounds {d['lower']:+.2f}, {d['upper']:+.2f})"
    )
