"""JSON reports to pandas: every list of objects in a report becomes a DataFrame."""
import json

import pandas as pd


def is_table(value):
    """A non-empty list whose items are all JSON objects."""
    return isinstance(value, list) and value and all(isinstance(v, dict) for v in value)


def with_frames(obj):
    """The report with each table (a list of objects, at any depth of nested objects)
    replaced by a DataFrame whose columns are the objects' keys in order; an empty list
    becomes an empty DataFrame (a table with no rows: len() 0, and .reindex(columns=…)
    gives the columns a non-empty one would have)."""
    if isinstance(obj, dict):
        return {k: (pd.DataFrame(v) if is_table(v) or (isinstance(v, list) and not v) else with_frames(v))
                for k, v in obj.items()}
    return obj


def report(text, frames):
    """Parses one report's JSON text; frames: tables as DataFrames."""
    data = json.loads(text)
    return with_frames(data) if frames else data
