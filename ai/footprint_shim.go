package ai

// TEMPORARY shim until branch h-ai lands.

func Footprint(spec string) (int64, error) { return 16 << 20, nil }

func CheckServed(spec string) error { return nil }
