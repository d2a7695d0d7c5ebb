"""The language seam: everything that differs between languages, one object per language."""
