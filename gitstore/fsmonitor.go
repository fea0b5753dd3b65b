package gitstore

// askMonitor asks a running monitor what changed since token. ok is false
// when no monitor answers, and full is true when everything must be
// scanned; either way token is where the next question starts.
func (s *Store) askMonitor(since string) (token string, paths []string, full, ok bool) {
	c, err := net.DialTimeout("unix", s.StatePath(monitorSocket), 100*time.Millisecond)
	if err != nil {
		return "", nil, true, false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(3 * time.Second))
	b := make([]byte, 8)
	rand.Read(b)
	cookie := "cookie-" + hex.EncodeToString(b)
	name := filepath.Join(s.StatePath(monitorCookies), cookie)
	if err := os.WriteFile(name, nil, 0o600); err != nil {
		return "", nil, true, false
	}
	defer os.Remove(name)
	if since == "" {
		since = "none:0"
	}
	if _, err := fmt.Fprintf(c, "Q %s %s\n", since, cookie); err != nil {
		return "", nil, true, false
	}
	r := bufio.NewReader(c)
	head, err := r.ReadString('\n')
	f := strings.Fields(head)
	if err != nil || len(f) != 3 || f[0] != "OK" {
		return "", nil, true, false
	}
	for {
		l, err := r.ReadString('\n')
		if err != nil {
			return "", nil, true, false
		}
		if l == "\n" {
			break
		}
		paths = append(paths, strings.TrimSuffix(l, "\n"))
	}
	return f[1], paths, f[2] == "true", true
}
