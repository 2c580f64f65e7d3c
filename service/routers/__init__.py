"""One router per game system; ``SYSTEMS`` is the list the app mounts, in this order."""

from fastapi import APIRouter

from service.routers import dos, dragon

SYSTEMS: list[APIRouter] = [dos.router, dragon.router]
