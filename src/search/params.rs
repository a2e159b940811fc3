//! Evaluation weights: one `[mg, eg]` pair per term, in centipawns (100 =
//! one soldier). `janggun tune` fits them to game results (Texel's method)
//! and prints a replacement for `PARAMS`; the layout below is the contract
//! between the evaluation and the tuner.

/// Material by `PieceKind` index (the general's slot is unused).
pub const MAT: usize = 0;
/// Piece-square tables: kind * 50 + relative rank * 5 + folded file (the
/// board is left-right symmetric, so files a..e and i..e share entries).
pub const PST: usize = 7;
/// Mobility per reachable point: chariot, cannon, horse, elephant.
pub const MOB: usize = PST + 7 * 50;
/// Points of the enemy palace reached: chariot, cannon, horse, elephant, soldier.
pub const ATT: usize = MOB + 4;
/// Enemy chariots on the own general's file.
pub const KS_CHARIOT_FILE: usize = ATT + 5;
/// Enemy cannons on the own general's file.
pub const KS_CANNON_FILE: usize = KS_CHARIOT_FILE + 1;
/// Own palace centre empty while the enemy has a chariot (open diagonals).
pub const KS_OPEN_CENTER: usize = KS_CANNON_FILE + 1;
/// Soldiers standing side by side.
pub const SOLDIER_PAIR: usize = KS_OPEN_CENTER + 1;
/// Cannons times (other pieces on the board - 20) / 2: screens to jump.
pub const CANNON_SCREENS: usize = SOLDIER_PAIR + 1;
/// Side to move.
pub const TEMPO: usize = CANNON_SCREENS + 1;
/// Own guards next to the own general.
pub const KING_SHIELD: usize = TEMPO + 1;
/// Attack on the enemy palace by two or more pieces: the square of the
/// weighted number of palace points hit, over 16 (see `eval::DANGER_UNITS`).
/// Mates need several pieces, so danger grows faster than the attackers.
pub const KING_DANGER: usize = KING_SHIELD + 1;
/// Own pieces attacked by a cheaper enemy piece.
pub const THREAT_LESSER: usize = KING_DANGER + 1;
/// Own pieces (the general aside) attacked and not defended.
pub const HANGING: usize = THREAT_LESSER + 1;
pub const NUM_PARAMS: usize = HANGING + 1;

/// Phase weights by `PieceKind` index; the start position has `PHASE_MAX`.
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 1, 2, 4, 2, 0];
pub const PHASE_MAX: i32 = 36;

pub type Params = [[i16; 2]; NUM_PARAMS];

/// The weights in use: fitted by `janggun tune` (see `tuned.rs`), starting
/// from the hand-set table of d113776.
pub static PARAMS: Params = super::tuned::TUNED;

/// A name for each parameter, for the tuner's output and `eval` reports.
pub fn param_name(i: usize) -> String {
    const KINDS: [&str; 7] = [
        "general", "guard", "elephant", "horse", "chariot", "cannon", "soldier",
    ];
    match i {
        _ if i < PST => format!("material {}", KINDS[i - MAT]),
        _ if i < MOB => {
            let j = i - PST;
            format!("pst {} r{} f{}", KINDS[j / 50], j % 50 / 5, j % 5)
        }
        _ if i < ATT => format!(
            "mobility {}",
            ["chariot", "cannon", "horse", "elephant"][i - MOB]
        ),
        _ if i < KS_CHARIOT_FILE => format!(
            "palace attack {}",
            ["chariot", "cannon", "horse", "elephant", "soldier"][i - ATT]
        ),
        KS_CHARIOT_FILE => "chariot on general's file".into(),
        KS_CANNON_FILE => "cannon on general's file".into(),
        KS_OPEN_CENTER => "open palace centre".into(),
        SOLDIER_PAIR => "soldier pair".into(),
        CANNON_SCREENS => "cannon screens".into(),
        TEMPO => "tempo".into(),
        KING_SHIELD => "guard shield".into(),
        KING_DANGER => "palace attack by several pieces".into(),
        THREAT_LESSER => "attacked by a cheaper piece".into(),
        HANGING => "attacked and undefended".into(),
        _ => format!("param {i}"),
    }
}
