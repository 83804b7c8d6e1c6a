defmodule Fincore.JSONTest do
  use ExUnit.Case, async: true
  alias Fincore.JSON

  test "decodes and encodes every kind of value" do
    text = ~S({"a":[1,-2.5,3e2,true,false,null],"b":"x\"\\\/\n\u00e9\ud83d\ude00","c":{}})
    value = JSON.decode!(text)
    assert value["a"] == [1, -2.5, 300.0, true, false, nil]
    assert value["b"] == "x\"\\/\né😀"
    assert JSON.decode!(JSON.encode!(value)) == value
    assert JSON.encode!(%{a: [1, 2.5, nil], b: :atom}) == ~s({"a":[1,2.5,null],"b":"atom"})
  end

  test "rejects what JSON.parse rejects" do
    for bad <- ["", "{", "[1,]", ~s({"a" 1}), "01", "1.", "+1", "'x'", "\"\t\"", "nul", "{} x", "\uFEFF{}", "NaN", ~s({"a":1,})] do
      assert {:error, %JSON.DecodeError{}} = JSON.decode(bad), "#{inspect(bad)} should not decode"
    end
  end

  test "keeps the last of repeated keys and replaces lone surrogates" do
    assert JSON.decode!(~s({"k":1,"k":2})) == %{"k" => 2}
    assert JSON.decode!(~S("\ud800x")) == "\uFFFDx"
  end

  test "escapes control characters when encoding" do
    assert JSON.encode!("a\u0001\"b") == ~S("a\u0001\"b")
  end
end
