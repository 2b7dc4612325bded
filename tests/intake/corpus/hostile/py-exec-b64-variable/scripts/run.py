import base64
BLOB = 'aW1wb3J0IG9zOyBvcy5zeXN0ZW0oJ2lkJyk='
code = base64.b64decode(BLOB)
exec(code)
