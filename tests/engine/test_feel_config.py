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


def test_switches_are_booleans_and_say_so():
    assert FeelConfig.from_dict({"wall": {"slide": True}}).wall.slide is True
    kinds = {name: t for name, t, _d, _m in knobs()}
    assert kinds["wall.slide"] == kinds["wall.jump"] == kinds["dash.enabled"] == kinds["dash.diagonals"] == "bool"
    assert kinds["dash.count"] == "int"
    for bad in (1, 0, "yes", 1.0):
        with pytest.raises(ConfigError) as err:
            FeelConfig.from_dict({"dash": {"enabled": bad}})
        assert err.value.key == "dash.enabled" and "expected true or false (on/off)" in str(err.value)
    with pytest.raises(ConfigError, match="wall.jump_reach: 40.0 is out of range; allowed 0.0..32.0 px"):
        FeelConfig().with_value("wall.jump_reach", 40.0)


def test_the_moves_are_off_by_default_and_their_derived_values_are_exact():
    assert not FeelConfig().derived.moves
    d = FeelConfig.from_dict({"physics": {"hz": 30}, "dash": {"enabled": True}}).derived
    assert d.moves and d.dash_steps == 5 and d.dash_last == pytest.approx(0.5)  # 0.15 s at 30 Hz: 4.5 steps
    assert d.dash_distance == pytest.approx(480.0 * 0.15)
    d = FeelConfig.from_dict({"dash": {"enabled": True}}).derived
    assert (d.dash_steps, d.dash_last, d.dash_cooldown_steps, d.dash_buffer_steps) == (9, pytest.approx(1.0), 12, 5)
    d = FeelConfig.from_dict({"wall": {"jump": True}}).derived
    assert d.wall_takeoff_speed == pytest.approx((2 * 600.0 * 48.0) ** 0.5)
    assert (d.wall_coyote_steps, d.lock_steps, d.grip_steps) == (3, 10, 72)
