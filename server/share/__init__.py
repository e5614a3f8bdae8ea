"""Sharing a tour: replay pictures as SVG and PNG, and printable worksheets."""
