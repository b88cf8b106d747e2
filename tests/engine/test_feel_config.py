"""FeelConfig: every knob has a unit and a default; loading from a dict names the bad key."""

import pytest

from engine import ConfigError, FeelConfig, knobs


def test_every_knob_has_unit_range_and_doc_and_its_default_is_in_range():
    table = knobs()
    assert len(table) >= 20
    for dotted, _kind, default, meta in table:
        assert meta["unit"] and meta["doc"], dotted
        assert meta["min"] <= default <= meta["max"], dotted
        assert FeelConfig().get(dotted) == default


def test_derived_values_follow_from_the_knobs():
    feel = FeelConfig.from_dict({"jump": {"height": 48, "time_to_apex": 0.4}, "physics": {"hz": 60}})
    d = feel.derived
    assert d.gravity == pytest.approx(600.0)
    assert d.takeoff_speed == pytest.approx(240.0)
    assert d.coyote_steps == round(0.1 * 60)
    assert d.buffer_steps == round(0.1 * 60)
    assert d.dt == pytest.approx(1 / 60)


def test_from_dict_overrides_only_the_named_keys():
    feel = FeelConfig.from_dict({"run": {"max_speed": 200}})
    assert feel.run.max_speed == 200.0
    assert feel.jump == FeelConfig().jump
    assert FeelConfig.from_dict(feel.to_dict()) == feel


@pytest.mark.parametrize("data,key,words", [
    ({"jump": {"hieght": 3}}, "jump.hieght", "did you mean 'jump.height'"),
    ({"jmup": {}}, "jmup", "did you mean 'jump'"),
    ({"jump": {"height": "high"}}, "jump.height", "expected a number"),
    ({"jump": {"height": True}}, "jump.height", "expected a number"),
    ({"physics": {"hz": 59.5}}, "physics.hz", "whole number"),
    ({"jump": {"height": -3}}, "jump.height", "out of range; allowed 4.0..400.0 px"),
    ({"fall": {"max_speed": float("inf")}}, "fall.max_speed", "out of range"),
    ({"run": 3}, "run", "expected a table"),
])
def test_bad_settings_raise_an_error_naming_the_key(data, key, words):
    with pytest.raises(ConfigError) as err:
        FeelConfig.from_dict(data)
    assert err.value.key == key
    assert str(err.value).startswith(key + ":")
    assert words in str(err.value)


def test_with_value_validates_too():
    assert FeelConfig().with_value("jump.height", 60).jump.height == 60.0
    with pytest.raises(ConfigError, match="jump.height"):
        FeelConfig().with_value("jump.height", 0)
