; A naked function: its body is its prologue, nothing may be inserted.
define void @naked(i8* align 16 %p) naked {
  call void asm sideeffect "ret", ""()
  unreachable
}
