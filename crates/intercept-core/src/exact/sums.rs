//! Exact sums of leaf probabilities, kept cheap: a [`Path`] holds the products of the picks along the current
//! path, depth by depth, so a new leaf multiplies only the picks below the node that changed; [`Sums`] adds
//! leaf probabilities per slot in integers, grouped by the leaf's denominator, and makes them fractions once
//! at the end.
//!
//! A leaf's probability is `num / den` with `num <= den`, so the numerators of one slot's leaves sharing a
//! denominator add up to at most that denominator: their sum fits `u128` whenever the denominator does. A
//! path whose denominator outgrows `u128` (long decimals: 0.123456789 picked five times) falls back to big
//! integers, grouped by denominator the same way: adding big numerators costs no greatest common divisor,
//! where adding big fractions leaf by leaf cost one per slot and made such trees a hundred times slower.

use std::collections::HashMap;

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::Node;

/// A leaf's probability.
pub(super) enum Leaf {
    /// `num / den`, not necessarily reduced.
    Small { num: u128, den: u128 },
    /// `num / den` in big integers, not necessarily reduced.
    Big { num: BigUint, den: BigUint },
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
            None => Leaf::Big {
                num: path.iter().map(|n| BigUint::from(n.weight)).product(),
                den: path.iter().map(|n| BigUint::from(n.total)).product(),
            },
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
    // The denominator first: `num <= den` and `weight <= total`, so the numerator fits whenever the
    // denominator does, and only then (multiplying the numerator first overflowed on 0.123456789).
    let den = den.checked_mul(total)?;
    Some((num.checked_mul(weight)?, den))
}

/// Per-slot sums of leaf probabilities.
pub(super) struct Sums {
    slots: usize,
    /// For each leaf denominator, the sum of the numerators of the leaves reporting each slot.
    by_den: HashMap<u128, Vec<u128>>,
    /// The same for leaves whose denominator outgrew `u128`.
    by_big_den: HashMap<BigUint, Vec<BigUint>>,
    /// What could not be added as integers.
    big: Vec<BigRational>,
}

impl Sums {
    pub(super) fn new(slots: usize) -> Sums {
        Sums { slots, by_den: HashMap::new(), by_big_den: HashMap::new(), big: vec![BigRational::zero(); slots] }
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
            Leaf::Big { num, den } => {
                let sums = self.by_big_den.entry(den.clone()).or_insert_with(|| vec![BigUint::zero(); self.slots]);
                slots.iter().for_each(|&s| sums[s] += num);
            }
            Leaf::TooLong => {}
        }
    }

    /// Every slot's sum as a reduced fraction: the integer sums over their common denominator, plus the rest.
    pub(super) fn fractions(self) -> Vec<BigRational> {
        let small = over_common(self.by_den.iter().map(|(&d, sums)| (BigUint::from(d), sums)), self.slots);
        let big = over_common(self.by_big_den.iter().map(|(d, sums)| (d.clone(), sums)), self.slots);
        self.big.into_iter().zip(small).zip(big).map(|((rest, small), big)| rest + small + big).collect()
    }
}

/// Every slot's sum of the numerators grouped by denominator, as one fraction over their least common
/// multiple.
fn over_common<'a, N>(groups: impl Iterator<Item = (BigUint, &'a Vec<N>)>, slots: usize) -> Vec<BigRational>
where
    N: Zero + Clone + Into<BigUint> + 'a,
{
    let groups: Vec<(BigUint, &Vec<N>)> = groups.collect();
    let common = groups.iter().fold(BigUint::one(), |l, (d, _)| l.lcm(d));
    let scales: Vec<(BigUint, &Vec<N>)> = groups.iter().map(|(d, sums)| (&common / d, *sums)).collect();
    let numerator = |s: usize| -> BigUint {
        let terms = scales.iter().filter(|(_, sums)| !sums[s].is_zero());
        terms.map(|(scale, sums)| scale * sums[s].clone().into()).sum()
    };
    let common = BigInt::from(common);
    (0..slots).map(|s| BigRational::new(BigInt::from(numerator(s)), common.clone())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_fall_back_to_big_rationals_past_u128() {
        let node = |weight, total| Node { choice: 0, next: None, weight, total };
        let mut path = Path::default();
        let sixths = vec![node(1, 6); 60];
        let Leaf::Big { num, den } = path.leaf(&sixths) else { panic!("6^60 outgrows u128") };
        assert_eq!(BigRational::new(num.into(), den.into()), BigRational::new(1.into(), BigInt::from(6).pow(60)));
        path.forget_from(0);
        let Leaf::Small { num, den } = path.leaf(&[node(4, 10), node(3, 3)]) else { panic!("small") };
        assert_eq!((num, den), (2, 5));
    }

    #[test]
    fn long_decimals_never_overflow_the_product() {
        // 0.123456789 and its complement, picked again and again: the denominator outgrows u128 while the
        // numerator is still being multiplied (issue 35: exact/sums.rs panicked here).
        let node = |weight, total| Node { choice: 0, next: None, weight, total };
        for weight in [123_456_789, 876_543_211, 1, 999_999_999] {
            let mut path = Path::default();
            let picks = vec![node(weight, 1_000_000_000); 6];
            let expected: BigRational =
                picks.iter().map(|n| BigRational::new(n.weight.into(), n.total.into())).product();
            match path.leaf(&picks) {
                Leaf::Small { num, den } => assert_eq!(BigRational::new(num.into(), den.into()), expected),
                Leaf::Big { num, den } => assert_eq!(BigRational::new(num.into(), den.into()), expected),
                Leaf::TooLong => panic!("six picks are not too long"),
            }
        }
    }

    #[test]
    fn sums_add_up_over_denominators() {
        let mut sums = Sums::new(2);
        sums.add(&Leaf::Small { num: 1, den: 6 }, &[0, 1]);
        sums.add(&Leaf::Small { num: 1, den: 4 }, &[0]);
        sums.add(&Leaf::Big { num: 1u8.into(), den: 12u8.into() }, &[1]);
        let f = sums.fractions();
        assert_eq!(f, vec![BigRational::new(5.into(), 12.into()), BigRational::new(1.into(), 4.into())]);
    }
}
