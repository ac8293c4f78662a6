
class Calls {
    private static final String BILLING = "http://billing:8080/api";
    void calls(RestTemplate rest, String baseUrl, String id) {
        rest.getForObject("http://billing:8080/invoices?page=" + id, String.class);
        String url = BILLING + "/invoices/" + id;
        restTemplate.exchange(url, HttpMethod.PUT, null, String.class);
        rest.getForEntity(baseUrl + "/invoices/{id}", String.class, id);
        rest.exchange(url, method, null, String.class);
        rest.getForObject(baseUrl, String.class);
    }
}