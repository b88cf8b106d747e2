"""Fixtures for the game's tests."""

import pygame
import pytest


@pytest.fixture(scope="module")
def display():
    """A 1x1 display mode (dummy driver): what images=True loading and convert() need."""
    pygame.display.init()
    pygame.display.set_mode((1, 1))
    yield
    pygame.display.quit()
