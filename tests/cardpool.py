"""A small card pool for the import/audit tests: a cards.cdb built with sqlite3 and scripts
written for these tests in the engines' style (not copied from any engine)."""
import sqlite3

MONSTER, SPELL, TRAP, NORMAL, EFFECT, FLIP = 0x1, 0x2, 0x4, 0x10, 0x20, 0x200000
QUICKPLAY, CONTINUOUS, COUNTER, SKILL = 0x10000, 0x20000, 0x100000, 0x8000000
BOTH, OCG_ONLY = 0x3, 0x1

# id, ot, alias, type, atk, def, level, attribute, name, desc
ROWS = [
    (1001, BOTH, 0, SPELL | QUICKPLAY, 0, 0, 0, 0, "Test Boost", "Target 1 monster; it gains 1000 ATK."),
    (1002, BOTH, 0, TRAP | COUNTER, 0, 0, 0, 0, "Test Negate", "When a Spell/Trap Card is activated: negate it."),
    (1003, BOTH, 0, MONSTER | EFFECT, 1800, 1000, 4, 0x20, "Test Battler", "Battle effects."),
    (1004, BOTH, 0, MONSTER | EFFECT | FLIP, 800, 1200, 3, 0x10, "Test Flipper", "FLIP: draw 1 card."),
    (1005, BOTH, 0, MONSTER | NORMAL, -2, 2000, 4, 0x1, "Test Beast", "A beast of unknown strength."),
    (1006, BOTH, 0, MONSTER | EFFECT, 1500, 1500, 4, 0x8, "Test Flagged", "Quick Effect, any time."),
    (1007, BOTH, 0, MONSTER | EFFECT, 1600, 1000, 4, 0x8, "Test Custom", "A custom event."),
    (1008, OCG_ONLY, 0, MONSTER | EFFECT, 1000, 1000, 3, 0x4, "Test Broken", "Its script is malformed."),
    (1009, BOTH, 0, TRAP | CONTINUOUS, 0, 0, 0, 0, "Test Field Boost",
     "Monsters you control gain 500 ATK during damage calculation only."),
    (1010, BOTH, 0, MONSTER | EFFECT, 1900, 0, 4, 0x20, "Test Summoner", "When summoned: draw."),
    (1011, BOTH, 0, MONSTER | EFFECT, 1400, 1400, 4, 0x10, "Test Unflagged", "Quick Effect: gain ATK."),
    (1012, BOTH, 0, SPELL | QUICKPLAY, 0, 0, 0, 0, "Test Careful",
     "This card cannot be activated during the Damage Step."),
    (1013, BOTH, 0, MONSTER | EFFECT, 1200, 800, 3, 0x10, "Test Light Helper",
     "During the Damage Step: a battling monster gains ATK."),
    (2001, BOTH, 1001, SPELL | QUICKPLAY, 0, 0, 0, 0, "Test Boost", "alternate artwork"),
    (3001, BOTH, 0, SKILL, 0, 0, 0, 0, "Test Skill", "a Skill card"),
]

SCRIPTS = {
    1001: """--Test Boost
local s,id=GetID()
function s.initial_effect(c)
	--Activate: -- e1:SetType(EFFECT_TYPE_IGNITION) in a comment is not read
	local e1=Effect.CreateEffect(c)
	e1:SetCategory(CATEGORY_ATKCHANGE)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetProperty(EFFECT_FLAG_CARD_TARGET|EFFECT_FLAG_DAMAGE_STEP)
	e1:SetCode(EVENT_FREE_CHAIN)
	e1:SetCondition(aux.StatChangeDamageStepCondition)
	e1:SetTarget(s.target)
	e1:SetOperation(s.activate)
	c:RegisterEffect(e1)
end
function s.target(e,tp,eg,ep,ev,re,r,rp,chk)
	if chk==0 then return true end
	local msg="end" -- a keyword inside a string does not close a block
end
function s.activate(e,tp,eg,ep,ev,re,r,rp)
end
""",
    1002: """--Test Negate
local s,id=GetID()
function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetCategory(CATEGORY_NEGATE+CATEGORY_DESTROY)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetCode(EVENT_CHAINING)
	e1:SetCondition(s.condition)
	c:RegisterEffect(e1)
end
function s.condition(e,tp,eg,ep,ev,re,r,rp)
	return re:IsHasType(EFFECT_TYPE_ACTIVATE) and Duel.IsChainNegatable(ev)
end
""",
    1003: """--Test Battler
local s,id=GetID()
function s.initial_effect(c)
	--destroyed by battle
	local e1=Effect.CreateEffect(c)
	e1:SetCategory(CATEGORY_DRAW)
	e1:SetType(EFFECT_TYPE_SINGLE+EFFECT_TYPE_TRIGGER_F)
	e1:SetCode(EVENT_BATTLE_DESTROYED)
	c:RegisterEffect(e1)
	--during damage calculation, from the hand
	local e2=Effect.CreateEffect(c)
	e2:SetCategory(CATEGORY_ATKCHANGE)
	e2:SetType(EFFECT_TYPE_QUICK_O)
	e2:SetProperty(EFFECT_FLAG_DAMAGE_STEP+EFFECT_FLAG_DAMAGE_CAL)
	e2:SetCode(EVENT_PRE_DAMAGE_CALCULATE)
	e2:SetRange(LOCATION_HAND)
	c:RegisterEffect(e2)
	--a copy that only differs in its range
	local e3=e2:Clone()
	e3:SetRange(LOCATION_GRAVE)
	c:RegisterEffect(e3)
end
""",
    1004: """--Test Flipper
local s,id=GetID()
function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetCategory(CATEGORY_DRAW)
	e1:SetType(EFFECT_TYPE_SINGLE+EFFECT_TYPE_FLIP)
	c:RegisterEffect(e1)
end
""",
    1006: """--Test Flagged
local s,id=GetID()
function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetCategory(CATEGORY_DESTROY)
	e1:SetType(EFFECT_TYPE_QUICK_O)
	e1:SetRange(LOCATION_MZONE)
	e1:SetCode(EVENT_FREE_CHAIN)
	e1:SetProperty(EFFECT_FLAG_DAMAGE_STEP)
	c:RegisterEffect(e1)
end
""",
    1007: """--Test Custom
local s,id=GetID()
function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_FIELD+EFFECT_TYPE_TRIGGER_O)
	e1:SetRange(LOCATION_MZONE)
	e1:SetCode(EVENT_CUSTOM+id)
	c:RegisterEffect(e1)
end
""",
    1008: """--Test Broken
local s,id=GetID()
function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_IGNITION)
	if true then
	c:RegisterEffect(e1)
end
""",
    1009: """--Test Field Boost
local s,id=GetID()
function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetCode(EVENT_FREE_CHAIN)
	c:RegisterEffect(e1)
	local e2=Effect.CreateEffect(c)
	e2:SetType(EFFECT_TYPE_FIELD)
	e2:SetCode(EFFECT_UPDATE_ATTACK)
	e2:SetRange(LOCATION_SZONE)
	e2:SetTargetRange(LOCATION_MZONE,0)
	e2:SetCondition(s.atkcon)
	e2:SetValue(500)
	c:RegisterEffect(e2)
end
function s.atkcon(e)
	return Duel.GetCurrentPhase()==PHASE_DAMAGE_CAL
end
""",
    1010: """--Test Summoner
local s,id=GetID()
function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetCategory(CATEGORY_DRAW)
	e1:SetType(EFFECT_TYPE_SINGLE+EFFECT_TYPE_TRIGGER_O)
	e1:SetCode(EVENT_SPSUMMON_SUCCESS)
	c:RegisterEffect(e1)
end
""",
    1011: """--Test Unflagged
local s,id=GetID()
function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetCategory(CATEGORY_ATKCHANGE)
	e1:SetType(EFFECT_TYPE_QUICK_O)
	e1:SetRange(LOCATION_MZONE)
	e1:SetCode(EVENT_FREE_CHAIN)
	c:RegisterEffect(e1)
end
""",
    1012: """--Test Careful
local s,id=GetID()
function s.initial_effect(c)
	local e1=Fusion.CreateSummonEff(c,nil)
	c:RegisterEffect(e1)
end
""",
    1013: """--Test Light Helper
local s,id=GetID()
function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetCategory(CATEGORY_ATKCHANGE)
	e1:SetType(EFFECT_TYPE_QUICK_O)
	e1:SetProperty(EFFECT_FLAG_DAMAGE_STEP)
	e1:SetCode(EVENT_FREE_CHAIN)
	e1:SetRange(LOCATION_HAND)
	e1:SetCondition(s.condition)
	c:RegisterEffect(e1)
end
function s.condition(e,tp,eg,ep,ev,re,r,rp)
	local phase=Duel.GetCurrentPhase()
	if phase~=PHASE_DAMAGE or Duel.IsDamageCalculated() then return false end
	return Duel.GetAttacker()~=nil
end
""",
}


def build(tmp_path, rows=ROWS, scripts=SCRIPTS, extra_sql=()):
    """Write the pool under tmp_path; returns (cdb path, scripts dir)."""
    cdb = tmp_path / "cards.cdb"
    db = sqlite3.connect(cdb)
    db.execute("create table datas(id integer primary key, ot integer, alias integer, setcode integer, "
               "type integer, atk integer, def integer, level integer, race integer, attribute integer, "
               "category integer)")
    db.execute("create table texts(id integer primary key, name text, desc text)")
    for cid, ot, alias, typ, atk, def_, level, attr, name, desc in rows:
        db.execute("insert into datas values(?,?,?,0,?,?,?,?,0,?,0)", (cid, ot, alias, typ, atk, def_, level, attr))
        db.execute("insert into texts values(?,?,?)", (cid, name, desc))
    for sql in extra_sql:
        db.execute(sql)
    db.commit()
    db.close()
    sdir = tmp_path / "script"
    sdir.mkdir()
    for cid, text in scripts.items():
        (sdir / f"c{cid}.lua").write_text(text, encoding="utf-8")
    return cdb, sdir
