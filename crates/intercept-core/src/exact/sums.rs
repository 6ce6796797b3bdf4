//! Exact sums of leaf probabilities, kept cheap: a [`Path`] holds the products of the picks along the current
//! path, depth by depth, so a new leaf multiplies only the picks below the node that changed; [`Sums`] adds
//! leaf probabilities per slot in integers, grouped by the leaf's denominator, and makes them fractions once
//! at the end.
//!
//! A leaf's probability is `num / den` with `num <= den`, so the numerators of one slot's leaves sharing a
//! denominator add up to at most that denominator: their sum fits `u128` whenever the denominator does. Only
//! a path whose denominator outgrows `u128` falls back to big rationals.

use std::collections::HashMap;

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::Node;

/// A leaf's probability.
pub(super) enum Leaf {
    /// `num / den`, not necessarily reduced.
    Small {
        num: u128,
        den: u128,
    },
    Big(BigRational),
    /// A path of more than [`MOST_BIG_PICKS`] picks whose product outgrew `u128`: multiplying it out as a big
    /// fraction would cost more than the walk's budget allows, so the tree is refused.
    TooLong,
}

/// The longest path whose probability is multiplied out as a big fraction.
pub(super) const MOST_BIG_PICKS: usize = 256;

/// The products of the picks along the current path: `prefix[i]` is the product of the first `i` picks as
/// `(num, den)`, `None` once the denominator outgrows `u128`.
#[derive(Default)]
pub(super) struct Path {
    prefix: Vec<Option<(u128, u128)>>,
}

impl Path {
    /// Forgets the products that involve the pick at `depth` or below: the odometer moved that pick on.
    pub(super) fn forget_from(&mut self, depth: usize) {
        self.prefix.truncate(depth + 1);
    }

    /// The probability of the leaf at the end of `path`, multiplying only the picks not yet multiplied.
    pub(super) fn leaf(&mut self, path: &[Node]) -> Leaf {
        if self.prefix.is_empty() {
            self.prefix.push(Some((1, 1)));
        }
        for node in &path[self.prefix.len() - 1..] {
            let product = self.prefix.last().copied().flatten().and_then(|p| times(p, node.weight, node.total));
            self.prefix.push(product);
        }
        match self.prefix[path.len()] {
            Some((num, den)) => Leaf::Small { num, den },
            None if path.len() > MOST_BIG_PICKS => Leaf::TooLong,
            None => Leaf::Big(path.iter().map(|n| BigRational::new(n.weight.into(), n.total.into())).product()),
        }
    }
}

/// `num / den` times `weight / total`, reduced only when the denominator would outgrow `u128`.
fn times((num, den): (u128, u128), weight: u64, total: u64) -> Option<(u128, u128)> {
    if weight == total {
        return Some((num, den));
    }
    let common = weight.gcd(&total);
    let (weight, total) = (u128::from(weight / common), u128::from(total / common));
    let (num, den) = match den.checked_mul(total) {
        Some(_) => (num, den),
        None => {
            let common = num.gcd(&den);
            (num / common, den / common)
        }
    };
    // `num <= den` and `weight <= total`, so the numerator fits whenever the denominator does.
    Some((num * weight, den.checked_mul(total)?))
}

/// Per-slot sums of leaf probabilities.
pub(super) struct Sums {
    slots: usize,
    /// For each leaf denominator, the sum of the numerators of the leaves reporting each slot.
    by_den: HashMap<u128, Vec<u128>>,
    /// What did not fit `u128`.
    big: Vec<BigRational>,
}

impl Sums {
    pub(super) fn new(slots: usize) -> Sums {
        Sums { slots, by_den: HashMap::new(), big: vec![BigRational::zero(); slots] }
    }

    /// Adds `leaf`'s probability to each of `slots`.
    pub(super) fn add(&mut self, leaf: &Leaf, slots: &[usize]) {
        match leaf {
            Leaf::Small { num, den } => {
                let sums = self.by_den.entry(*den).or_insert_with(|| vec![0; self.slots]);
                for &s in slots {
                    match sums[s].checked_add(*num) {
                        Some(sum) => sums[s] = sum,
                        // Only a trial reporting one slot twice could get here.
                        None => self.big[s] += BigRational::new((*num).into(), (*den).into()),
                    }
                }
            }
            Leaf::Big(p) => slots.iter().for_each(|&s| self.big[s] += p),
            Leaf::TooLong => {}
        }
    }

    /// Every slot's sum as a reduced fraction: the integer sums over their common denominator, plus the rest.
    pub(super) fn fractions(self) -> Vec<BigRational> {
        let common = self.by_den.keys().fold(BigUint::one(), |l, &d| l.lcm(&BigUint::from(d)));
        let scales: Vec<(BigUint, &Vec<u128>)> =
            self.by_den.iter().map(|(&d, sums)| (&common / BigUint::from(d), sums)).collect();
        let common = BigInt::from(common);
        let numerator = |s: usize| -> BigUint {
            scales.iter().filter(|(_, sums)| sums[s] != 0).map(|(scale, sums)| scale * BigUint::from(sums[s])).sum()
        };
        let small = |s| BigRational::new(BigInt::from(numerator(s)), common.clone());
        self.big.iter().enumerate().map(|(s, big)| small(s) + big).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_fall_back_to_big_rationals_past_u128() {
        let node = |weight, total| Node { choice: 0, next: None, weight, total };
        let mut path = Path::default();
        let sixths = vec![node(1, 6); 60];
        let Leaf::Big(p) = path.leaf(&sixths) else { panic!("6^60 outgrows u128") };
        assert_eq!(p, BigRational::new(1.into(), BigInt::from(6).pow(60)));
        path.forget_from(0);
        let Leaf::Small { num, den } = path.leaf(&[node(4, 10), node(3, 3)]) else { panic!("small") };
        assert_eq!((num, den), (2, 5));
    }

    #[test]
    fn sums_add_up_over_denominators() {
        let mut sums = Sums::new(2);
        sums.add(&Leaf::Small { num: 1, den: 6 }, &[0, 1]);
        sums.add(&Leaf::Small { num: 1, den: 4 }, &[0]);
        sums.add(&Leaf::Big(BigRational::new(1.into(), 12.into())), &[1]);
        let f = sums.fractions();
        assert_eq!(f, vec![BigRational::new(5.into(), 12.into()), BigRational::new(1.into(), 4.into())]);
    }
}
