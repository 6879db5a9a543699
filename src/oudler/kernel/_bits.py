"""LLVM bit intrinsics for the kernel: population count, trailing and leading zeros of a uint64
(one machine instruction each, where a loop over bits would dominate the playouts)."""

from typing import Any

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


def _popc(typingctx: Any, x: Any) -> Any:
    """Number of set bits."""
    if x != types.uint64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.int64(types.uint64), codegen


def _ctz(typingctx: Any, x: Any) -> Any:
    """Index of the lowest set bit (64 for 0)."""
    if x != types.uint64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.uint64), codegen


def _clz(typingctx: Any, x: Any) -> Any:
    """Number of leading zero bits (64 for 0)."""
    if x != types.uint64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.uint64), codegen


# typed as plain callables for mypy (numba's intrinsic wrapper is typed for the compiler's call)
popc: Any = intrinsic(_popc)
ctz: Any = intrinsic(_ctz)
clz: Any = intrinsic(_clz)
