const request = async ({ url = "", method = "GET", queryParams = {} }: Params) => {
  const response = await fetch(`${url}?${new URLSearchParams(queryParams).toString()}`, { method });
  const proxyURL = await getFrontendProxyURL();
  await fetch(`${proxyURL}${url}?${new URLSearchParams(queryParams).toString()}`, { method });
  await fetch(`/${url}`);
  return response.json();
};
export default request;