package x

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"
)

const ledgerURL = "http://ledger:9000"

func routes(e *echo.Echo) {
	admin := e.Group("/admin")
	admin.PUT("/limits/:account", nil)
}

func post(ctx context.Context, account string) {
	req, _ := http.NewRequestWithContext(ctx, "post", ledgerURL+"/accounts/"+account+"/entries", nil)
	_ = req
}
