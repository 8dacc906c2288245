"""Design advisor: from a goal (train a model on N tokens by a deadline, or serve a request rate within latency
targets) and the site's limits to the Pareto front of cluster designs (cost, time or latency headroom,
facility kW). ``goal`` holds the goal as data, ``space`` the candidates and their closed-form bounds,
``evaluate`` one design in full, ``run`` the search on a process pool or a Dask cluster."""

from gpuplanner.advisor.goal import Candidate, Goal, goal_from_dict, read_goal
from gpuplanner.advisor.run import AdviceResult, advise

__all__ = ["AdviceResult", "Candidate", "Goal", "advise", "goal_from_dict", "read_goal"]
