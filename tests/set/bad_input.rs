//! Bad arguments are refused and change nothing.

use super::*;

/// Sets from different contexts and bad arguments: clear errors, nothing changed.
#[test]
fn refused_and_nothing_written() {
    let ctx = context();
    let other = context();
    let mut a = GpuSet::from_values(&ctx, &[1, 2, 3]).unwrap();
    let b = GpuSet::from_values(&other, &[3]).unwrap();
    assert!(matches!(
        GpuSet::op(&a, &b, SetOp::And),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        GpuSet::op_cardinality(&a, &b, SetOp::Or),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        a.assign(SetOperand::This, SetOperand::Set(&b), SetOp::Or),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(a.insert_range(5, 4), Err(Error::InvalidArgument(_))));
    assert!(matches!(
        a.insert_range(0, (1 << 32) + 1),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        a.range_cardinality(0, (1 << 32) + 1),
        Err(Error::InvalidArgument(_))
    ));
    let mut small = [0u32; 2];
    assert!(matches!(a.to_array(&mut small), Err(Error::InvalidArgument(_))));
    assert_eq!(small, [0, 0]);
    assert_eq!(a.to_vec().unwrap(), vec![1, 2, 3]);
}
