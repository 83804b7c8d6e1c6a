defmodule Fincore.MixProject do
  use Mix.Project

  def project do
    [
      app: :fincore,
      version: "0.1.0",
      elixir: "~> 1.14",
      start_permanent: false,
      deps: [],
      description: "Fincore API client: typed models, method groups, retries and webhook verification, on OTP alone.",
      package: [licenses: ["MIT"], files: ~w(lib mix.exs README.md)],
      docs: [main: "Fincore"]
    ]
  end

  # :httpc lives in inets (ssl and public_key for https URLs); HMAC in crypto. No other dependencies.
  def application do
    [extra_applications: [:logger, :inets, :ssl, :public_key, :crypto]]
  end
end
