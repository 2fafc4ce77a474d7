//! Openings in the offset format of Gomocup, c-gomoku-cli and our shared data: one opening per line,
//! stones as offsets from the centre, `dx,dy, dx,dy, ...`, placed at `x = dx + W/2`, `y = dy + H/2`
//! (integer division), black first. Blank lines and `#` comments are skipped.
//!
//! Invariant: a parsed [`Opening`] has at least one stone; placing it checks that every stone is on the
//! board and no two share a point.

use std::collections::HashSet;

use crate::game::board::Pos;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub offsets: Vec<(i32, i32)>,
}

impl Opening {
    /// The stones on a `width` x `height` board, in order.
    pub fn place(&self, width: usize, height: usize) -> Result<Vec<Pos>, String> {
        let mut seen = HashSet::new();
        let mut out = Vec::with_capacity(self.offsets.len());
        for &(dx, dy) in &self.offsets {
            let (x, y) = (dx + (width / 2) as i32, dy + (height / 2) as i32);
            if x < 0 || y < 0 || x as usize >= width || y as usize >= height {
                return Err(format!("opening stone {dx},{dy} is off a {width}x{height} board"));
            }
            let p = Pos::new(x as usize, y as usize);
            if !seen.insert(p) {
                return Err(format!("opening repeats the point {p}"));
            }
            out.push(p);
        }
        Ok(out)
    }
}

/// Parses an openings file.
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = vec![];
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let nums: Result<Vec<i32>, _> = line.split(',').map(|t| t.trim().parse::<i32>()).collect();
        let nums = nums.map_err(|_| format!("openings line {}: '{line}' is not a list of numbers", i + 1))?;
        if nums.is_empty() || nums.len() % 2 != 0 {
            return Err(format!("openings line {}: an odd count of numbers", i + 1));
        }
        out.push(Opening { offsets: nums.chunks(2).map(|c| (c[0], c[1])).collect() });
    }
    if out.is_empty() {
        return Err("no opening in the file".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_from_the_centre() {
        let o = parse_openings("# c\n0,0, 1,0, 1,3\n\n-7,-7, 7,7\n").unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].place(15, 15).unwrap(), vec![Pos::new(7, 7), Pos::new(8, 7), Pos::new(8, 10)]);
        assert_eq!(o[1].place(15, 15).unwrap(), vec![Pos::new(0, 0), Pos::new(14, 14)]);
        assert!(o[1].place(10, 10).is_err());
        assert!(parse_openings("1,2,3").is_err());
        assert!(parse_openings("").is_err());
    }
}
