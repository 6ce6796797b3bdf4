//! Non-negative integers as little-endian 64-bit limbs, zero as no limbs, with the one operation the state
//! enumerator does most done in place: `acc += x * k`. A merge of two states adds thousands of such
//! products per step; through `BigUint` each allocated a temporary, and allocation was half the time.

use num_bigint::BigUint;

/// A non-negative integer: little-endian 64-bit limbs with no trailing zero limb.
pub(super) type Limbs = Vec<u64>;

/// `acc += x * k` for a one-limb `k`.
pub(super) fn add_mul(acc: &mut Limbs, x: &[u64], k: u64) {
    add_mul_at(acc, x, k, 0);
}

/// `acc += x * k` for any `k`.
pub(super) fn add_mul_wide(acc: &mut Limbs, x: &[u64], k: &[u64]) {
    for (shift, &kj) in k.iter().enumerate() {
        add_mul_at(acc, x, kj, shift);
    }
}

/// `acc += x * k * 2^(64 shift)`.
fn add_mul_at(acc: &mut Limbs, x: &[u64], k: u64, shift: usize) {
    if k == 0 || x.is_empty() {
        return;
    }
    if acc.len() < shift + x.len() {
        acc.resize(shift + x.len(), 0);
    }
    let mut carry = 0u128;
    for (a, &xi) in acc[shift..].iter_mut().zip(x) {
        let t = u128::from(xi) * u128::from(k) + u128::from(*a) + carry;
        *a = t as u64;
        carry = t >> 64;
    }
    let mut i = shift + x.len();
    while carry != 0 {
        if i == acc.len() {
            acc.push(0);
        }
        let t = u128::from(acc[i]) + carry;
        acc[i] = t as u64;
        carry = t >> 64;
        i += 1;
    }
}

/// `x` as a `BigUint`.
pub(super) fn to_big(x: &[u64]) -> BigUint {
    BigUint::new(x.iter().flat_map(|&l| [l as u32, (l >> 32) as u32]).collect())
}

/// `b` as limbs.
pub(super) fn from_big(b: &BigUint) -> Limbs {
    b.to_u64_digits()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_carry_across_limbs() {
        let mut acc = from_big(&BigUint::from(u64::MAX));
        add_mul(&mut acc, &[u64::MAX, 1], u64::MAX);
        let want = BigUint::from(u64::MAX) + (BigUint::from(u64::MAX) + (BigUint::from(1u8) << 64)) * u64::MAX;
        assert_eq!(to_big(&acc), want);
        let k = from_big(&(BigUint::from(3u8) << 100));
        let mut wide = Limbs::new();
        add_mul_wide(&mut wide, &acc, &k);
        assert_eq!(to_big(&wide), want * (BigUint::from(3u8) << 100));
        add_mul(&mut wide, &[], 7);
        add_mul(&mut wide, &[7], 0);
        assert_eq!(to_big(&wide), to_big(&wide.clone()));
    }
}
