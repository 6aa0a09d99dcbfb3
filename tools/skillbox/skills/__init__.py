"""Checks for the Agent Skills packages and plugin manifests this repository ships."""
