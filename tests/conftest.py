from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "plays"
SHARED = ROOT.parent / "shared"
