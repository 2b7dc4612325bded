"""Usage: python scripts/run.py CITY"""
import json
import os
import sys
import urllib.request

API = "https://api.weather.example.com/v1/forecast"


def main() -> None:
    key = os.environ["WEATHER_API_KEY"]
    url = f"{API}?city={sys.argv[1]}&key={key}"
    with urllib.request.urlopen(url, timeout=10) as response:
        print(json.dumps(json.load(response), indent=2))


if __name__ == "__main__":
    main()
