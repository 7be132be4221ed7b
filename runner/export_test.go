package runner

// Opened and Encoders count the stores opened and the local encoders
// loaded by this process so far.
func Opened() int64   { return opened.Load() }
func Encoders() int64 { return encoders.Load() }
