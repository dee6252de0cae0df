"""The hooks every Python suite shares, registered as plugins by each suite's conftest
(`pytest_configure`): the skip policy, and the measurements printed at a run's end. As
plugins, each module keeps its own `pytest_runtest_logreport`; imported into a conftest,
two hooks of one name could not both be there."""
from . import measurements, skip_policy


def register_shared_hooks(config) -> None:
    for module in (skip_policy, measurements):
        if not config.pluginmanager.is_registered(module):
            config.pluginmanager.register(module, f"reelhouse-{module.__name__.rsplit('.', 1)[-1]}")
