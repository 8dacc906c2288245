"""The checks room: rules that read the other rooms' results and say what is wrong, as findings (a message
id + values; the sentences live in ``gpuplanner.text``). Checks import results from the other rooms; the
other rooms never import checks."""
