"""Settings, typed and validated once, from ``DRAGONROLL_*`` environment variables."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DRAGONROLL_", extra="ignore", frozen=True)

    host: str = Field(default="127.0.0.1", description="Address to listen on.")
    port: Annotated[int, Field(ge=1, le=65535)] = Field(default=8000, description="TCP port.")
    body_limit: Annotated[int, Field(ge=1024, le=16 * 1024 * 1024)] = Field(
        default=64 * 1024, description="Largest request body accepted, in bytes."
    )
