// The promise is the vector load's own alignment (`{alignment = 32}`, MLIR
// 22): no assume, `load <8 x float> ..., align 32` on a pointer read from
// the memref descriptor through extractvalue. Checked by align-guard<accesses>.
func.func @vadd_aligned(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c8 {
    %x = vector.load %a[%i] {alignment = 32} : memref<?xf32>, vector<8xf32>
    %y = vector.load %b[%i] {alignment = 32} : memref<?xf32>, vector<8xf32>
    %z = arith.addf %x, %y : vector<8xf32>
    vector.store %z, %c[%i] {alignment = 32} : memref<?xf32>, vector<8xf32>
  }
  return
}
