// Kernels as an MLIR user writes them; lowered in the test by the
// mlir-opt and mlir-translate of the LLVM under test (mlir-lower.py).
// memref.assume_alignment is the promise: an `llvm.assume` (a bundle on
// MLIR 22, an icmp on MLIR 14) on the descriptor's aligned pointer. (It
// returns the promised memref since MLIR 21; mlir-lower.py drops the result
// for older MLIR.)
func.func @vadd(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %A32 = memref.assume_alignment %a, 32 : memref<?xf32>
  %B32 = memref.assume_alignment %b, 32 : memref<?xf32>
  %C32 = memref.assume_alignment %c, 32 : memref<?xf32>
  %n = memref.dim %A32, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c8 {
    %x = vector.load %A32[%i] : memref<?xf32>, vector<8xf32>
    %y = vector.load %B32[%i] : memref<?xf32>, vector<8xf32>
    %z = arith.addf %x, %y : vector<8xf32>
    vector.store %z, %C32[%i] : memref<?xf32>, vector<8xf32>
  }
  return
}

func.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %A16 = memref.assume_alignment %a, 16 : memref<?x?xf32>
  %B16 = memref.assume_alignment %b, 16 : memref<?x?xf32>
  %C16 = memref.assume_alignment %c, 16 : memref<?x?xf32>
  %m = memref.dim %A16, %c0 : memref<?x?xf32>
  %k = memref.dim %A16, %c1 : memref<?x?xf32>
  %n = memref.dim %B16, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      scf.for %l = %c0 to %k step %c1 {
        %x = memref.load %A16[%i, %l] : memref<?x?xf32>
        %y = memref.load %B16[%l, %j] : memref<?x?xf32>
        %acc = memref.load %C16[%i, %j] : memref<?x?xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        memref.store %s, %C16[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}
