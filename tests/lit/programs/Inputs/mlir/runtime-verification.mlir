// MLIR's own check of a promise: -generate-runtime-verification tests
// memref.assume_alignment's pointer before the assume (MLIR 21+), reading
// it through another extractvalue of the descriptor than the assume does.
func.func @vadd(%a: memref<?xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %A = memref.assume_alignment %a, 32 : memref<?xf32>
  %x = memref.load %A[%c0] : memref<?xf32>
  memref.store %x, %A[%c0] : memref<?xf32>
  return
}
