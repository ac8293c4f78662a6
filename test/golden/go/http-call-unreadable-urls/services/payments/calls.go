package x

import (
	"fmt"
	"net/http"
)

func calls(url, base, id string) {
	_, _ = http.Get(url)
	_, _ = http.Get(fmt.Sprintf("%[1]s/orders/%[2]s", base, id))
	_, _ = http.Head(fmt.Sprintf("%s/orders/%d", base, 42))
}
