package reports

import (
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/azservicebus"
)

func run(client *azservicebus.Client) error {
	sender, err := client.NewSender("report-requests", nil)
	if err != nil {
		return err
	}
	defer sender.Close(nil)
	if _, err := client.NewReceiverForQueue("report-results", nil); err != nil {
		return err
	}
	_, err = client.NewReceiverForSubscription("ledger", "reports", nil)
	return err
}
