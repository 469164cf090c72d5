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
    (1010, BOTH, 0, MONSTER | EFFECT, 1900, 0, 4, 0x20, "Test Summoner",
     "When summoned: draw. When destroyed: inflict damage."),
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
	local e2=Effect.CreateEffect(c)
	e2:SetCategory(CATEGORY_DAMAGE)
	e2:SetType(EFFECT_TYPE_SINGLE+EFFECT_TYPE_TRIGGER_F)
	e2:SetCode(EVENT_DESTROYED)
	c:RegisterEffect(e2)
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


# --- a pool for the effect-model mapping (checks/cards/scriptmodel/): each script uses one
# mapped effect code, category, cost or operation; written for these tests
EFFECT_ROWS = [
    (1101, BOTH, 0, TRAP, 0, 0, 0, 0, "Test Mirror", "When an opponent's monster declares an attack: Destroy all your opponent's Attack Position monsters."),
    (1102, BOTH, 0, TRAP, 0, 0, 0, 0, "Test Cylinder", "When an opponent's monster declares an attack: Target the attacking monster; negate the attack, and if you do, inflict damage to your opponent equal to its ATK."),
    (1103, BOTH, 0, TRAP | COUNTER, 0, 0, 0, 0, "Test Jammer", "When a Spell Card is activated: Discard 1 card; negate the activation, and if you do, destroy it."),
    (1104, BOTH, 0, SPELL | QUICKPLAY, 0, 0, 0, 0, "Test Rush", "Target 1 face-up monster on the field; it gains 700 ATK until the end of this turn."),
    (1105, BOTH, 0, TRAP, 0, 0, 0, 0, "Test Wall", "Your monsters cannot be destroyed by battle this turn, and you take no battle damage this turn."),
    (1106, BOTH, 0, MONSTER | EFFECT, 400, 1500, 3, 0x10, "Test Lily", "During damage calculation: pay 2000 LP; this card gains 3000 ATK."),
    (1107, BOTH, 0, MONSTER | EFFECT, 1000, 1000, 4, 0x20, "Test Aura", "Monsters you control gain 500 ATK. This card cannot be destroyed by battle."),
    (1108, BOTH, 0, SPELL | QUICKPLAY, 0, 0, 0, 0, "Test Halver", "Target 1 face-up monster your opponent controls; its ATK is halved."),
    (1109, BOTH, 0, SPELL | QUICKPLAY, 0, 0, 0, 0, "Test Chooser", "Apply 1 of these effects: destroy all monsters; or gain 1000 LP."),
    (1110, BOTH, 0, SPELL | QUICKPLAY, 0, 0, 0, 0, "Test Searcher", "Add 1 monster from your Deck to your hand."),
    (1111, BOTH, 0, TRAP, 0, 0, 0, 0, "Test Gate", "When an opponent's monster declares an attack: pay half your LP, then target the attacking monster; negate the attack, then end the Battle Phase."),
    (1112, BOTH, 0, MONSTER | EFFECT, 1200, 1200, 4, 0x1, "Test Shifter", "You can banish this card from your GY, then target 1 monster you control; change it to face-down Defense Position."),
    (1114, BOTH, 0, MONSTER | NORMAL, 1300, 2000, 3, 0x1, "Test Stone", "A stone soldier."),
    (1113, BOTH, 0, TRAP, 0, 0, 0, 0, "Test Mender", "When your opponent's monster attacks directly while you have 1000 or less LP: gain 1000 LP."),
    (1115, BOTH, 0, MONSTER | EFFECT, 1900, 1400, 5, 0x10, "Test Lance", "If this card attacks a Defense Position monster, inflict piercing battle damage."),
    (1116, BOTH, 0, TRAP, 0, 0, 0, 0, "Test Tide", "When your opponent's monster declares an attack: draw 1 card, then send the top 2 cards of your opponent's Deck to the GY."),
    (1117, BOTH, 0, TRAP, 0, 0, 0, 0, "Test Twins", "When your opponent's monster declares an attack: Activate 1 of these effects; ● Draw 1 card. ● Draw 2 cards. You can only activate 1 \"Test Twins\" per turn."),
    (1119, BOTH, 0, TRAP | CONTINUOUS, 0, 0, 0, 0, "Test Spike", "Each time this card inflicts battle damage: inflict 300 damage."),
    (1120, BOTH, 0, SPELL | QUICKPLAY, 0, 0, 0, 0, "Test Gale", "Target up to 2 face-up monsters on the field; destroy them."),
    (1121, BOTH, 0, TRAP, 0, 0, 0, 0, "Test Storm", "Target 2 face-up monsters on the field; destroy them."),
    (1122, BOTH, 0, MONSTER | EFFECT, 500, 500, 3, 0x20, "Test Gnat", "If this card is Special Summoned: place 2 counters on it. It gains 500 ATK for each counter on it. At the end of the Damage Step, if this card battled: remove 1 counter from it."),
    (1123, BOTH, 0, MONSTER | EFFECT, 3000, 3000, 8, 0x20, "Test Root", "The ATK and DEF of all other monsters on the field are halved."),
    (1118, BOTH, 0, TRAP, 0, 0, 0, 0, "Test Pair", "When your opponent's monster declares an attack: Activate 1 of these effects; ● Draw 1 card. ● Draw 2 cards. You can only use each effect of \"Test Pair\" once per turn."),
    (1124, BOTH, 0, TRAP, 0, 0, 0, 0, "Test Vow", "When your opponent's monster declares an attack: draw 1 card. You can only use this effect of \"Test Vow\" once per Duel."),
    (1125, BOTH, 0, MONSTER | EFFECT, 1300, 1800, 3, 0x10, "Test Soldier", "During damage calculation: this card gains 2000 ATK and DEF during that damage calculation only."),
    (1126, BOTH, 0, SPELL | QUICKPLAY, 0, 0, 0, 0, "Test Spurt", "Target 1 face-up monster; it gains 500 ATK during damage calculation only."),
]
_HEAD = "local s,id=GetID()\nfunction s.initial_effect(c)\n\tlocal e1=Effect.CreateEffect(c)\n"
_REG = "\tc:RegisterEffect(e1)\nend\n"

def _two_effects(code1: str, code2: str) -> str:
    """A Trap whose two effects ("Activate 1 of these effects") have the count limits given."""
    def effect(k, code):
        return (f"\tlocal e{k}=Effect.CreateEffect(c)\n\te{k}:SetCategory(CATEGORY_DRAW)\n"
                f"\te{k}:SetType(EFFECT_TYPE_ACTIVATE)\n\te{k}:SetCode(EVENT_ATTACK_ANNOUNCE)\n"
                f"\te{k}:SetCountLimit({code})\n\te{k}:SetCondition(s.con)\n\te{k}:SetOperation(s.op{k})\n"
                f"\tc:RegisterEffect(e{k})\n")
    return ("local s,id=GetID()\nfunction s.initial_effect(c)\n" + effect(1, code1) + effect(2, code2) + "end\n"
            "function s.con(e,tp,eg,ep,ev,re,r,rp)\n\treturn Duel.IsTurnPlayer(1-tp)\nend\n"
            "function s.op1(e,tp,eg,ep,ev,re,r,rp)\n\tDuel.Draw(tp,1,REASON_EFFECT)\nend\n"
            "function s.op2(e,tp,eg,ep,ev,re,r,rp)\n\tDuel.Draw(tp,2,REASON_EFFECT)\nend\n")


def _attack_trap(category: str, limit: str, op: str) -> str:
    """A Trap activated when the opponent's monster declares an attack, with that count limit and
    operation (`op`: the body of s.op)."""
    return (_HEAD + f"\te1:SetCategory({category})\n\te1:SetType(EFFECT_TYPE_ACTIVATE)\n"
            f"\te1:SetCode(EVENT_ATTACK_ANNOUNCE)\n\te1:SetCountLimit({limit})\n\te1:SetCondition(s.con)\n"
            "\te1:SetOperation(s.op)\n" + _REG +
            "function s.con(e,tp,eg,ep,ev,re,r,rp)\n\treturn Duel.IsTurnPlayer(1-tp)\nend\n"
            "function s.op(e,tp,eg,ep,ev,re,r,rp)\n" + op + "end\n")


def _targets(low: int) -> str:
    """An activation that targets `low` to 2 face-up monsters and destroys those still there."""
    return _HEAD + f"""	e1:SetCategory(CATEGORY_DESTROY)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetProperty(EFFECT_FLAG_CARD_TARGET)
	e1:SetCode(EVENT_FREE_CHAIN)
	e1:SetTarget(s.tg)
	e1:SetOperation(s.op)
""" + _REG + f"""function s.tg(e,tp,eg,ep,ev,re,r,rp,chk,chkc)
	if chk==0 then return Duel.IsExistingTarget(Card.IsFaceup,tp,LOCATION_MZONE,LOCATION_MZONE,{low},nil) end
	Duel.SelectTarget(tp,Card.IsFaceup,tp,LOCATION_MZONE,LOCATION_MZONE,{low},2,nil)
end
function s.op(e,tp,eg,ep,ev,re,r,rp)
	local g=Duel.GetTargetCards(e)
	Duel.Destroy(g,REASON_EFFECT)
end
"""


EFFECT_SCRIPTS = {
    1120: _targets(1),
    1121: _targets(2),
    1101: _HEAD + """	e1:SetCategory(CATEGORY_DESTROY)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetCode(EVENT_ATTACK_ANNOUNCE)
	e1:SetCondition(s.con)
	e1:SetTarget(s.tg)
	e1:SetOperation(s.op)
""" + _REG + """function s.con(e,tp,eg,ep,ev,re,r,rp)
	return Duel.IsTurnPlayer(1-tp)
end
function s.tg(e,tp,eg,ep,ev,re,r,rp,chk)
	if chk==0 then return Duel.IsExistingMatchingCard(Card.IsAttackPos,tp,0,LOCATION_MZONE,1,nil) end
end
function s.op(e,tp,eg,ep,ev,re,r,rp)
	local g=Duel.GetMatchingGroup(Card.IsAttackPos,tp,0,LOCATION_MZONE,nil)
	Duel.Destroy(g,REASON_EFFECT)
end
""",
    1102: _HEAD + """	e1:SetCategory(CATEGORY_DAMAGE)
	e1:SetProperty(EFFECT_FLAG_CARD_TARGET)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetCode(EVENT_ATTACK_ANNOUNCE)
	e1:SetCondition(s.con)
	e1:SetTarget(s.tg)
	e1:SetOperation(s.op)
""" + _REG + """function s.con(e,tp,eg,ep,ev,re,r,rp)
	return tp~=Duel.GetTurnPlayer()
end
function s.tg(e,tp,eg,ep,ev,re,r,rp,chk,chkc)
	local a=Duel.GetAttacker()
	if chkc then return chkc==a end
	if chk==0 then return a:IsOnField() and a:IsCanBeEffectTarget(e) end
	Duel.SetTargetCard(a)
end
function s.op(e,tp,eg,ep,ev,re,r,rp)
	local tc=Duel.GetFirstTarget()
	if tc:IsRelateToEffect(e) and Duel.NegateAttack() then
		Duel.Damage(1-tp,tc:GetAttack(),REASON_EFFECT)
	end
end
""",
    1103: _HEAD + """	e1:SetCategory(CATEGORY_NEGATE+CATEGORY_DESTROY)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetCode(EVENT_CHAINING)
	e1:SetCondition(s.con)
	e1:SetCost(s.cost)
	e1:SetOperation(s.op)
""" + _REG + """function s.con(e,tp,eg,ep,ev,re,r,rp)
	return re:IsHasType(EFFECT_TYPE_ACTIVATE) and re:IsActiveType(TYPE_SPELL) and Duel.IsChainNegatable(ev)
end
function s.cost(e,tp,eg,ep,ev,re,r,rp,chk)
	if chk==0 then return Duel.IsExistingMatchingCard(Card.IsDiscardable,tp,LOCATION_HAND,0,1,nil) end
	Duel.DiscardHand(tp,Card.IsDiscardable,1,1,REASON_COST+REASON_DISCARD)
end
function s.op(e,tp,eg,ep,ev,re,r,rp)
	if Duel.NegateActivation(ev) and re:GetHandler():IsRelateToEffect(re) then
		Duel.Destroy(eg,REASON_EFFECT)
	end
end
""",
    1104: _HEAD + """	e1:SetCategory(CATEGORY_ATKCHANGE)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetProperty(EFFECT_FLAG_CARD_TARGET+EFFECT_FLAG_DAMAGE_STEP)
	e1:SetCode(EVENT_FREE_CHAIN)
	e1:SetCondition(aux.StatChangeDamageStepCondition)
	e1:SetTarget(s.tg)
	e1:SetOperation(s.op)
""" + _REG + """function s.tg(e,tp,eg,ep,ev,re,r,rp,chk,chkc)
	if chk==0 then return Duel.IsExistingTarget(Card.IsFaceup,tp,LOCATION_MZONE,LOCATION_MZONE,1,nil) end
	Duel.SelectTarget(tp,Card.IsFaceup,tp,LOCATION_MZONE,LOCATION_MZONE,1,1,nil)
end
function s.op(e,tp,eg,ep,ev,re,r,rp)
	local tc=Duel.GetFirstTarget()
	if tc:IsRelateToEffect(e) and tc:IsFaceup() then
		local e1=Effect.CreateEffect(e:GetHandler())
		e1:SetType(EFFECT_TYPE_SINGLE)
		e1:SetCode(EFFECT_UPDATE_ATTACK)
		e1:SetValue(700)
		e1:SetReset(RESETS_STANDARD_PHASE_END)
		tc:RegisterEffect(e1)
	end
end
""",
    1105: _HEAD + """	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetCode(EVENT_FREE_CHAIN)
	e1:SetOperation(s.op)
""" + _REG + """function s.op(e,tp,eg,ep,ev,re,r,rp)
	local e1=Effect.CreateEffect(e:GetHandler())
	e1:SetType(EFFECT_TYPE_FIELD)
	e1:SetCode(EFFECT_AVOID_BATTLE_DAMAGE)
	e1:SetProperty(EFFECT_FLAG_PLAYER_TARGET)
	e1:SetTargetRange(1,0)
	e1:SetReset(RESET_PHASE|PHASE_END)
	Duel.RegisterEffect(e1,tp)
	local e2=Effect.CreateEffect(e:GetHandler())
	e2:SetType(EFFECT_TYPE_FIELD)
	e2:SetCode(EFFECT_INDESTRUCTABLE_BATTLE)
	e2:SetTargetRange(LOCATION_MZONE,0)
	e2:SetValue(1)
	e2:SetReset(RESET_PHASE|PHASE_END)
	Duel.RegisterEffect(e2,tp)
end
""",
    1106: _HEAD + """	e1:SetCategory(CATEGORY_ATKCHANGE)
	e1:SetType(EFFECT_TYPE_QUICK_O)
	e1:SetProperty(EFFECT_FLAG_DAMAGE_STEP+EFFECT_FLAG_DAMAGE_CAL)
	e1:SetCode(EVENT_PRE_DAMAGE_CALCULATE)
	e1:SetRange(LOCATION_MZONE)
	e1:SetCondition(s.con)
	e1:SetCost(s.cost)
	e1:SetOperation(s.op)
""" + _REG + """function s.con(e,tp,eg,ep,ev,re,r,rp)
	return e:GetHandler():IsRelateToBattle()
end
function s.cost(e,tp,eg,ep,ev,re,r,rp,chk)
	if chk==0 then return Duel.CheckLPCost(tp,2000) end
	Duel.PayLPCost(tp,2000)
end
function s.op(e,tp,eg,ep,ev,re,r,rp)
	local c=e:GetHandler()
	c:UpdateAttack(3000)
end
""",
    1125: _HEAD + """	e1:SetCategory(CATEGORY_ATKCHANGE+CATEGORY_DEFCHANGE)
	e1:SetType(EFFECT_TYPE_TRIGGER_F+EFFECT_TYPE_FIELD)
	e1:SetRange(LOCATION_MZONE)
	e1:SetCode(EVENT_PRE_DAMAGE_CALCULATE)
	e1:SetOperation(s.op)
""" + _REG + """function s.op(e,tp,eg,ep,ev,re,r,rp)
	local c=e:GetHandler()
	local e1=Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_SINGLE)
	e1:SetCode(EFFECT_UPDATE_ATTACK)
	e1:SetReset(RESET_PHASE+PHASE_DAMAGE_CAL)
	e1:SetValue(2000)
	c:RegisterEffect(e1)
	local e2=e1:Clone()
	e2:SetCode(EFFECT_UPDATE_DEFENSE)
	c:RegisterEffect(e2)
end
""",
    1126: _HEAD + """	e1:SetCategory(CATEGORY_ATKCHANGE)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetProperty(EFFECT_FLAG_CARD_TARGET)
	e1:SetCode(EVENT_FREE_CHAIN)
	e1:SetTarget(s.tg)
	e1:SetOperation(s.op)
""" + _REG + """function s.tg(e,tp,eg,ep,ev,re,r,rp,chk,chkc)
	if chk==0 then return Duel.IsExistingTarget(Card.IsFaceup,tp,LOCATION_MZONE,LOCATION_MZONE,1,nil) end
	Duel.SelectTarget(tp,Card.IsFaceup,tp,LOCATION_MZONE,LOCATION_MZONE,1,1,nil)
end
function s.op(e,tp,eg,ep,ev,re,r,rp)
	local tc=Duel.GetFirstTarget()
	tc:UpdateAttack(500,RESET_PHASE+PHASE_DAMAGE_CAL)
end
""",
    1107: """local s,id=GetID()
function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_FIELD)
	e1:SetCode(EFFECT_UPDATE_ATTACK)
	e1:SetRange(LOCATION_MZONE)
	e1:SetTargetRange(LOCATION_MZONE,0)
	e1:SetValue(500)
	c:RegisterEffect(e1)
	local e2=Effect.CreateEffect(c)
	e2:SetType(EFFECT_TYPE_SINGLE)
	e2:SetCode(EFFECT_INDESTRUCTABLE_BATTLE)
	e2:SetValue(1)
	c:RegisterEffect(e2)
end
""",
    1108: _HEAD + """	e1:SetCategory(CATEGORY_ATKCHANGE)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetProperty(EFFECT_FLAG_CARD_TARGET)
	e1:SetCode(EVENT_FREE_CHAIN)
	e1:SetTarget(s.tg)
	e1:SetOperation(s.op)
""" + _REG + """function s.tg(e,tp,eg,ep,ev,re,r,rp,chk,chkc)
	if chk==0 then return Duel.IsExistingTarget(Card.IsFaceup,tp,0,LOCATION_MZONE,1,nil) end
	Duel.SelectTarget(tp,Card.IsFaceup,tp,0,LOCATION_MZONE,1,1,nil)
end
function s.op(e,tp,eg,ep,ev,re,r,rp)
	local tc=Duel.GetFirstTarget()
	local e1=Effect.CreateEffect(e:GetHandler())
	e1:SetType(EFFECT_TYPE_SINGLE)
	e1:SetCode(EFFECT_SET_ATTACK_FINAL)
	e1:SetValue(tc:GetAttack()/2)
	tc:RegisterEffect(e1)
end
""",
    1109: _HEAD + """	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetCode(EVENT_FREE_CHAIN)
	e1:SetOperation(s.op)
""" + _REG + """function s.op(e,tp,eg,ep,ev,re,r,rp)
	local op=Duel.SelectOption(tp,aux.Stringid(id,0),aux.Stringid(id,1))
	if op==0 then
		Duel.Destroy(Duel.GetFieldGroup(tp,LOCATION_MZONE,LOCATION_MZONE),REASON_EFFECT)
	else
		Duel.Recover(tp,1000,REASON_EFFECT)
	end
end
""",
    1110: _HEAD + """	e1:SetCategory(CATEGORY_TOHAND+CATEGORY_SEARCH)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetCode(EVENT_FREE_CHAIN)
	e1:SetTarget(s.tg)
	e1:SetOperation(s.op)
""" + _REG + """function s.tg(e,tp,eg,ep,ev,re,r,rp,chk)
	if chk==0 then return Duel.IsExistingMatchingCard(Card.IsAbleToHand,tp,LOCATION_DECK,0,1,nil) end
end
function s.op(e,tp,eg,ep,ev,re,r,rp)
	local g=Duel.SelectMatchingCard(tp,Card.IsAbleToHand,tp,LOCATION_DECK,0,1,1,nil)
	Duel.SendtoHand(g,nil,REASON_EFFECT)
end
""",
    1111: _HEAD + """	e1:SetProperty(EFFECT_FLAG_CARD_TARGET)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetCode(EVENT_ATTACK_ANNOUNCE)
	e1:SetCondition(s.con)
	e1:SetCost(s.cost)
	e1:SetTarget(s.tg)
	e1:SetOperation(s.op)
""" + _REG + """function s.con(e,tp,eg,ep,ev,re,r,rp)
	return Duel.GetAttacker():IsControler(1-tp)
end
function s.cost(e,tp,eg,ep,ev,re,r,rp,chk)
	if chk==0 then return true end
	Duel.PayLPCost(tp,math.floor(Duel.GetLP(tp)/2))
end
function s.tg(e,tp,eg,ep,ev,re,r,rp,chk,chkc)
	local tg=Duel.GetAttacker()
	if chkc then return chkc==tg end
	if chk==0 then return tg:IsOnField() and tg:IsCanBeEffectTarget(e) end
	Duel.SetTargetCard(tg)
end
function s.op(e,tp,eg,ep,ev,re,r,rp)
	if Duel.NegateAttack() then
		Duel.SkipPhase(1-tp,PHASE_BATTLE,RESET_PHASE|PHASE_BATTLE_STEP,1)
	end
end
""",
    1112: _HEAD + """	e1:SetCategory(CATEGORY_POSITION)
	e1:SetType(EFFECT_TYPE_QUICK_O)
	e1:SetProperty(EFFECT_FLAG_CARD_TARGET)
	e1:SetCode(EVENT_FREE_CHAIN)
	e1:SetRange(LOCATION_GRAVE)
	e1:SetCost(aux.bfgcost)
	e1:SetTarget(s.tg)
	e1:SetOperation(s.op)
""" + _REG + """function s.tg(e,tp,eg,ep,ev,re,r,rp,chk,chkc)
	if chk==0 then return Duel.IsExistingTarget(Card.IsCanTurnSet,tp,LOCATION_MZONE,0,1,nil) end
	Duel.SelectTarget(tp,Card.IsCanTurnSet,tp,LOCATION_MZONE,0,1,1,nil)
end
function s.op(e,tp,eg,ep,ev,re,r,rp)
	local tc=Duel.GetFirstTarget()
	Duel.ChangePosition(tc,POS_FACEDOWN_DEFENSE)
end
""",
    1113: _HEAD + """	e1:SetCategory(CATEGORY_RECOVER)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetCode(EVENT_ATTACK_ANNOUNCE)
	e1:SetCondition(s.con)
	e1:SetOperation(s.op)
""" + _REG + """function s.con(e,tp,eg,ep,ev,re,r,rp)
	return Duel.IsTurnPlayer(1-tp) and Duel.GetAttackTarget()==nil and Duel.GetLP(tp)<=1000
end
function s.op(e,tp,eg,ep,ev,re,r,rp)
	Duel.Recover(tp,1000,REASON_EFFECT)
end
""",    1115: _HEAD + """	e1:SetType(EFFECT_TYPE_SINGLE)
	e1:SetCode(EFFECT_PIERCE)
""" + _REG,
    1116: _attack_trap("CATEGORY_DRAW+CATEGORY_DECKDES", "1,id,EFFECT_COUNT_CODE_OATH",
                       "\tif Duel.Draw(tp,1,REASON_EFFECT)>0 then\n\t\tDuel.DiscardDeck(1-tp,2,REASON_EFFECT)\n\tend\n"),
    # two effects on one code: one limit in the engine ("You can only activate 1 ... per turn")
    1117: _two_effects("1,id,EFFECT_COUNT_CODE_OATH", "1,id,EFFECT_COUNT_CODE_OATH"),
    # two codes: a limit each ("each effect of ... once per turn")
    1118: _two_effects("1,{id,1}", "1,{id,2}"),
    # once per Duel
    1124: _attack_trap("CATEGORY_DRAW", "1,id,EFFECT_COUNT_CODE_DUEL", "\tDuel.Draw(tp,1,REASON_EFFECT)\n"),
    # counters: placed and removed by triggers, and an ATK bonus for each (written for these tests)
    1122: """local s,id=GetID()
function s.initial_effect(c)
	c:EnableCounterPermit(0x99)
	local e1=Effect.CreateEffect(c)
	e1:SetCategory(CATEGORY_COUNTER)
	e1:SetType(EFFECT_TYPE_SINGLE+EFFECT_TYPE_TRIGGER_F)
	e1:SetCode(EVENT_SPSUMMON_SUCCESS)
	e1:SetOperation(s.addop)
	c:RegisterEffect(e1)
	local e2=Effect.CreateEffect(c)
	e2:SetType(EFFECT_TYPE_SINGLE)
	e2:SetProperty(EFFECT_FLAG_SINGLE_RANGE)
	e2:SetRange(LOCATION_MZONE)
	e2:SetCode(EFFECT_UPDATE_ATTACK)
	e2:SetValue(s.atkval)
	c:RegisterEffect(e2)
	local e3=Effect.CreateEffect(c)
	e3:SetType(EFFECT_TYPE_SINGLE+EFFECT_TYPE_TRIGGER_F)
	e3:SetCode(EVENT_DAMAGE_STEP_END)
	e3:SetOperation(s.rmop)
	c:RegisterEffect(e3)
end
function s.addop(e,tp,eg,ep,ev,re,r,rp)
	e:GetHandler():AddCounter(0x99,2)
end
function s.atkval(e,c)
	return c:GetCounter(0x99)*500
end
function s.rmop(e,tp,eg,ep,ev,re,r,rp)
	local c=e:GetHandler()
	c:RemoveCounter(tp,0x99,1,REASON_EFFECT)
end
""",
    # halvings of every other monster's ATK and DEF (written for these tests)
    1123: """local s,id=GetID()
function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_FIELD)
	e1:SetCode(EFFECT_SET_ATTACK_FINAL)
	e1:SetRange(LOCATION_MZONE)
	e1:SetTargetRange(LOCATION_MZONE,LOCATION_MZONE)
	e1:SetTarget(s.tg)
	e1:SetValue(s.atkval)
	c:RegisterEffect(e1)
	local e2=e1:Clone()
	e2:SetCode(EFFECT_SET_DEFENSE_FINAL)
	e2:SetValue(s.defval)
	c:RegisterEffect(e2)
end
function s.tg(e,c)
	return c~=e:GetHandler()
end
function s.atkval(e,c)
	return math.ceil(c:GetAttack()/2)
end
function s.defval(e,c)
	return math.ceil(c:GetDefense()/2)
end
""",
    # a Trap's trigger on its own battle damage: an event the catalogue refuses on a Spell or Trap
    1119: _HEAD + """	e1:SetCategory(CATEGORY_DAMAGE)
	e1:SetType(EFFECT_TYPE_SINGLE+EFFECT_TYPE_TRIGGER_F)
	e1:SetCode(EVENT_BATTLE_DAMAGE)
	e1:SetRange(LOCATION_SZONE)
	e1:SetOperation(s.op)
""" + _REG + """function s.op(e,tp,eg,ep,ev,re,r,rp)
	Duel.Damage(1-tp,300,REASON_EFFECT)
end
""",
}


def build_effects(tmp_path):
    """(cards.cdb, script dir) of the effect-model pool."""
    return build(tmp_path, EFFECT_ROWS, EFFECT_SCRIPTS)


if __name__ == "__main__":   # the demonstration in docs/cards.md: python tests/cardpool.py DIR
    import pathlib
    import sys
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "demo-pool")
    out.mkdir(parents=True, exist_ok=True)
    cdb, sdir = build_effects(out)
    print(f"{cdb}\n{sdir}")
