"""The facility room: power, thermal (cooling, PUE, climate), electrical chain, cost, TCO, the cloud comparison and the cost sensitivities."""
