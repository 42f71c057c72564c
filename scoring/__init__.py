"""The rules core: pure, typed Python with no Django import.

Everything that is a rule of Guandan, Tractor or Dou Dizhu (docs/rules.md) lives here; the Django
apps, the API, the exports and the CLI (`python -m scoring …`) only ask it.
"""
